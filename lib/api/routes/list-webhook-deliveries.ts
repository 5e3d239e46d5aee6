import { z } from "zod";
import { pageParams } from "@/lib/query-params";
import { listDeliveries } from "@/lib/webhooks/webhook-deliveries";
import { DELIVERY_STATUSES, deliverySchema } from "@/lib/webhooks/webhook-schema";
import { pageSchema, webhookEndpointIdParams, webhookMetaSchema } from "../openapi/shared-schemas";
import { defineRoute } from "../route";

const deliveriesQuery = z.strictObject({
  ...pageParams(100, 20),
  status: z.enum(DELIVERY_STATUSES).optional().describe("Only deliveries of this status."),
  event_id: z
    .string()
    .regex(/^evt_\d{16}$/, "Must be an event id: evt_ and 16 digits, as an event's `id`")
    .meta({ examples: ["evt_0000000000000001"] })
    .optional()
    .describe("Only the deliveries of this event (its `id`)."),
});

// GET /v1/webhook-endpoints/:id/deliveries — the endpoint's delivery log.
export const listWebhookDeliveriesRoute = defineRoute({
  method: "GET",
  path: "/v1/webhook-endpoints/:id/deliveries",
  operationId: "listWebhookDeliveries",
  summary: "List a webhook endpoint's deliveries",
  description:
    "The endpoint's deliveries, newest first, each with every attempt (newest first): when, the HTTP status or the error, the " +
    "latency and the first 1 KB of the answer. `status` is pending while retries remain, then succeeded or failed. Filter by " +
    "`status` and by `event_id`.",
  tag: "Webhooks",
  permission: "write",
  permissionOnPlansWithout: "opportunities:read",
  params: webhookEndpointIdParams,
  query: deliveriesQuery,
  data: pageSchema(deliverySchema, deliveriesQuery),
  meta: webhookMetaSchema,
  example: { params: { id: "WEBHOOK_ENDPOINT_ID" }, createdBy: "createWebhookEndpoint" },
  handler: async ({ actor, params, query, services }) => ({
    data: await listDeliveries(services, actor, params.id, query),
    meta: { mode: actor.mode },
  }),
});
