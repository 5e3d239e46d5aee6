import { getEndpoint } from "@/lib/webhooks/webhook-endpoints";
import { endpointSchema } from "@/lib/webhooks/webhook-schema";
import { defineRoute } from "../route";
import { getOne, webhookEndpoints } from "./mode-resources";

// GET /v1/webhook-endpoints/:id — one endpoint, without its secret.
export const getWebhookEndpointRoute = defineRoute({
  method: "GET",
  path: "/v1/webhook-endpoints/:id",
  operationId: "getWebhookEndpoint",
  summary: "Get a webhook endpoint",
  description: "One of the account's endpoints of the key's mode, without its secret. Another account's, the other mode's or an unknown id is 404.",
  tag: "Webhooks",
  permission: "write",
  permissionOnPlansWithout: "opportunities:read",
  ...getOne(webhookEndpoints, endpointSchema, getEndpoint),
});
