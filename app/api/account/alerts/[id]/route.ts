// PATCH /api/account/alerts/{id} — change a rule (name, conditions, endpoints, cool-down, enabled); DELETE — remove it.
import { sessionRoute } from "@/lib/api/session-route";

export const PATCH = sessionRoute("updateAlertRule");
export const DELETE = sessionRoute("deleteAlertRule");
