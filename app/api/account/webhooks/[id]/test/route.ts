// POST /api/account/webhooks/{id}/test — queue a test event to the endpoint (body: {"type"?}), as POST /v1/webhook-endpoints/{id}/test.
import { sessionRoute } from "@/lib/api/session-route";

export const POST = sessionRoute("sendWebhookTestEvent");
