// PATCH /api/account/webhooks/{id} — change an endpoint (URL, event types, description, enabled); DELETE — remove it.
import { sessionRoute } from "@/lib/api/session-route";

export const PATCH = sessionRoute("updateWebhookEndpoint");
export const DELETE = sessionRoute("deleteWebhookEndpoint");
