import { z } from "zod";
import { pageParams } from "@/lib/query-params";
import { listEndpoints } from "@/lib/webhooks/webhook-endpoints";
import { endpointSchema } from "@/lib/webhooks/webhook-schema";
import { pageSchema, webhookMetaSchema } from "../openapi/shared-schemas";
import { pageOf } from "@/lib/pagination";
import { defineRoute } from "../route";

const listQuery = z.strictObject({ ...pageParams(100, 20) });

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
  query: listQuery,
  data: pageSchema(endpointSchema, listQuery),
  meta: webhookMetaSchema,
  handler: async ({ actor, query, services }) => {
    const all = await listEndpoints(services, actor);
    return {
      data: pageOf(all, query),
      meta: { mode: actor.mode },
    };
  },
});
