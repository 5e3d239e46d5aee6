// POST /api/account/webhooks/{id}/deliveries/{delivery_id}/redeliver — one more attempt of a delivery, now.
import { sessionRoute } from "@/lib/api/session-route";

export const POST = sessionRoute("redeliverWebhook");
