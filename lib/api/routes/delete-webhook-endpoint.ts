import { deleteEndpoint } from "@/lib/webhooks/webhook-endpoints";
import { defineRoute } from "../route";
import { deleteOne, webhookEndpoints } from "./mode-resources";

// DELETE /v1/webhook-endpoints/:id — removes an endpoint and its delivery log.
export const deleteWebhookEndpointRoute = defineRoute({
  method: "DELETE",
  path: "/v1/webhook-endpoints/:id",
  operationId: "deleteWebhookEndpoint",
  summary: "Delete a webhook endpoint",
  description: "Removes the endpoint, its delivery log and any retries still pending. Answers the deleted endpoint's id.",
  tag: "Webhooks",
  permission: "write",
  permissionOnPlansWithout: "opportunities:read",
  ...deleteOne(webhookEndpoints, deleteEndpoint),
});
