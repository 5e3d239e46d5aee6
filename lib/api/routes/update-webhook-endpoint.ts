import { updateEndpoint } from "@/lib/webhooks/webhook-endpoints";
import { endpointSchema, endpointUpdateSchema } from "@/lib/webhooks/webhook-schema";
import { defineRoute } from "../route";
import { updateOne, webhookEndpoints } from "./mode-resources";

// PATCH /v1/webhook-endpoints/:id — changes an endpoint's URL, event types, description or enabled flag.
export const updateWebhookEndpointRoute = defineRoute({
  method: "PATCH",
  path: "/v1/webhook-endpoints/:id",
  operationId: "updateWebhookEndpoint",
  summary: "Change a webhook endpoint",
  description:
    "Give any of `url`, `event_types`, `description` (null removes it) and `enabled`. `enabled: false` stops deliveries (retries " +
    "still pending end as failed); `enabled: true` resumes them, also for an endpoint the service disabled after 3 days of " +
    "failures. Events written while it was disabled are not sent afterwards. Returns the endpoint as it is now.",
  tag: "Webhooks",
  permission: "write",
  permissionOnPlansWithout: "opportunities:read",
  ...updateOne(webhookEndpoints, endpointUpdateSchema, endpointSchema, { enabled: true }, updateEndpoint),
});
