import { sendTestEvent } from "@/lib/webhooks/webhook-deliveries";
import { deliverySchema } from "@/lib/webhooks/webhook-schema";
import { webhookEndpointIdParams, webhookMetaSchema } from "../openapi/shared-schemas";
import { defineRoute } from "../route";

// POST /v1/webhook-endpoints/:id/test — queues a test event to the endpoint.
export const testWebhookEndpointRoute = defineRoute({
  method: "POST",
  path: "/v1/webhook-endpoints/:id/test",
  operationId: "sendWebhookTestEvent",
  summary: "Send a test event to a webhook endpoint",
  description:
    "Queues an event of the endpoint's first event type with id `evt_0000000000000000` (no real event has it) and " +
    "`data: {\"test\": true}`, signed and retried like any delivery (to a disabled endpoint: one attempt). Answers the delivery, " +
    "pending; its attempts appear in GET /v1/webhook-endpoints/{id}/deliveries within seconds. Takes no body.",
  tag: "Webhooks",
  permission: "write",
  permissionOnPlansWithout: "opportunities:read",
  params: webhookEndpointIdParams,
  data: deliverySchema,
  meta: webhookMetaSchema,
  idempotent: true,
  example: { params: { id: "WEBHOOK_ENDPOINT_ID" }, createdBy: "createWebhookEndpoint" },
  handler: async ({ key, params, services }) => ({
    data: await sendTestEvent(await services.db(), key, params.id),
    meta: { mode: key.mode },
  }),
});
