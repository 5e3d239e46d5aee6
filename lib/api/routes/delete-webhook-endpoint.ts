import { z } from "zod";
import { deleteEndpoint } from "@/lib/webhooks/webhook-endpoints";
import { webhookEndpointIdParams, webhookMetaSchema } from "../openapi/shared-schemas";
import { defineRoute } from "../route";

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
  params: webhookEndpointIdParams,
  data: z.object({ id: z.string().describe("The deleted endpoint's id."), deleted: z.literal(true) }),
  meta: webhookMetaSchema,
  example: { params: { id: "WEBHOOK_ENDPOINT_ID" }, createdBy: "createWebhookEndpoint" },
  handler: async ({ actor, params, services, origin }) => ({
    data: await deleteEndpoint(services, actor, params.id, origin),
    meta: { mode: actor.mode },
  }),
});
