import { sendTestEvent } from "@/lib/webhooks/webhook-deliveries";
import { deliverySchema, testEventSchema } from "@/lib/webhooks/webhook-schema";
import { defineRoute } from "../route";
import { inMode, type OneInput, oneOf, webhookEndpoints } from "./mode-resources";

// POST /v1/webhook-endpoints/:id/test — queues a test event of a chosen type to the endpoint.
export const testWebhookEndpointRoute = defineRoute({
  method: "POST",
  path: "/v1/webhook-endpoints/:id/test",
  operationId: "sendWebhookTestEvent",
  summary: "Send a test event to a webhook endpoint",
  description:
    "Queues one event of the `type` asked for (default the endpoint's first event type) to the endpoint, enabled or not: `data` " +
    "has that type's real shape (a sample built as real events are), the event carries `test: true` and an id of its own (no " +
    "real event has it; each test a new one), and it is signed like any delivery but sent once, never retried: its one " +
    "attempt's result is the delivery's status. Answers the delivery, pending; its attempt appears in " +
    "GET /v1/webhook-endpoints/{id}/deliveries within seconds. Test events, redeliveries and replays together are limited to " +
    "20 a minute per account (429 RATE_LIMITED with `retry_after`). The body may be empty (`{}`).",
  tag: "Webhooks",
  permission: "write",
  permissionOnPlansWithout: "opportunities:read",
  ...oneOf(webhookEndpoints, { type: "opportunity.opened" }),
  body: testEventSchema,
  data: deliverySchema,
  idempotent: true,
  handler: inMode(({ actor, params, body, services }: OneInput<typeof testEventSchema>) => sendTestEvent(services, actor, params.id, { type: body.type })),
});
