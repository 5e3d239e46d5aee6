import { listEndpoints } from "@/lib/webhooks/webhook-endpoints";
import { endpointSchema } from "@/lib/webhooks/webhook-schema";
import { defineRoute } from "../route";
import { listOf, webhookEndpoints } from "./mode-resources";

// GET /v1/webhook-endpoints — the account's endpoints of the key's mode.
export const listWebhookEndpointsRoute = defineRoute({
  method: "GET",
  path: "/v1/webhook-endpoints",
  operationId: "listWebhookEndpoints",
  summary: "List your webhook endpoints",
  description:
    "The account's endpoints of the key's mode (live keys the live ones, test keys the test ones), oldest first. Secrets are never " +
    "listed: they are shown once, when an endpoint is created or its secret rolled.",
  tag: "Webhooks",
  permission: "write",
  permissionOnPlansWithout: "opportunities:read",
  ...listOf(webhookEndpoints, endpointSchema, listEndpoints),
});
