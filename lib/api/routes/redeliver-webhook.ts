import { redeliver } from "@/lib/webhooks/webhook-deliveries";
import { deliverySchema } from "@/lib/webhooks/webhook-schema";
import { webhookDeliveryParams, webhookMetaSchema } from "../openapi/shared-schemas";
import { defineRoute } from "../route";

// POST /v1/webhook-endpoints/:id/deliveries/:delivery_id/redeliver — sends a finished delivery again.
export const redeliverWebhookRoute = defineRoute({
  method: "POST",
  path: "/v1/webhook-endpoints/:id/deliveries/:delivery_id/redeliver",
  operationId: "redeliverWebhook",
  summary: "Redeliver a webhook delivery",
  description:
    "Queues one more attempt of the delivery now, with the same body and `webhook-id` (a new timestamp and signature), " +
    "recorded in its log as manual and never retried. On a delivery still being retried, a success ends its retries and a " +
    "failure leaves them as they were. Works on a disabled endpoint too, to check a fix before enabling it. Test events, " +
    "redeliveries and replays together are limited to 20 a minute per account (429 RATE_LIMITED with `retry_after`). Takes no body.",
  tag: "Webhooks",
  permission: "write",
  permissionOnPlansWithout: "opportunities:read",
  params: webhookDeliveryParams,
  data: deliverySchema,
  meta: webhookMetaSchema,
  idempotent: true,
  example: { params: { id: "WEBHOOK_ENDPOINT_ID", delivery_id: "WEBHOOK_DELIVERY_ID" }, createdBy: "sendWebhookTestEvent" },
  handler: async ({ actor, params, services }) => ({
    data: await redeliver(services, actor, params.id, params.delivery_id),
    meta: { mode: actor.mode },
  }),
});
