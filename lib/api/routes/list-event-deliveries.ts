import { z } from "zod";
import { pageParams } from "@/lib/query-params";
import { listEventDeliveries } from "@/lib/webhooks/webhook-deliveries";
import { deliverySchema } from "@/lib/webhooks/webhook-schema";
import { eventIdParams, pageSchema, webhookMetaSchema } from "../openapi/shared-schemas";
import { defineRoute } from "../route";

const eventDeliveriesQuery = z.strictObject({ ...pageParams(100, 20) });

// GET /v1/events/:id/deliveries — what happened to one event at each of the account's endpoints.
export const listEventDeliveriesRoute = defineRoute({
  method: "GET",
  path: "/v1/events/:id/deliveries",
  operationId: "listEventDeliveries",
  summary: "List an event's webhook deliveries",
  description:
    "Every delivery of the event to your endpoints of the key's mode, across endpoints (oldest first), each with its attempts " +
    "as GET /v1/webhook-endpoints/{id}/deliveries shows them. An event none of your endpoints received answers an empty page.",
  tag: "Webhooks",
  permission: "write",
  permissionOnPlansWithout: "opportunities:read",
  params: eventIdParams,
  query: eventDeliveriesQuery,
  data: pageSchema(deliverySchema, eventDeliveriesQuery),
  meta: webhookMetaSchema,
  example: { params: { id: "evt_0000000000000001" } },
  handler: async ({ actor, params, query, services }) => ({
    data: await listEventDeliveries(services, actor, params.id, query),
    meta: { mode: actor.mode },
  }),
});
