// GET /api/account/webhooks — the signed-in user's live webhook endpoints, a page as GET /v1/webhook-endpoints answers; POST — add one (its secret is in this answer only).
import { sessionRoute } from "@/lib/api/session-route";

export const GET = sessionRoute("listWebhookEndpoints");
export const POST = sessionRoute("createWebhookEndpoint");
