// GET /api/account/alerts — the signed-in user's live alert rules, a page as GET /v1/alert-rules answers; POST — add one.
import { sessionRoute } from "@/lib/api/session-route";

export const GET = sessionRoute("listAlertRules");
export const POST = sessionRoute("createAlertRule");
