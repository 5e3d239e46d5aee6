import { rollEndpointSecret } from "@/lib/webhooks/webhook-endpoints";
import { endpointWithSecretSchema, rollSecretSchema } from "@/lib/webhooks/webhook-schema";
import { webhookEndpointIdParams, webhookMetaSchema } from "../openapi/shared-schemas";
import { defineRoute } from "../route";

// POST /v1/webhook-endpoints/:id/roll-secret — a new signing secret, the previous one signing beside it for a while.
export const rollWebhookSecretRoute = defineRoute({
  method: "POST",
  path: "/v1/webhook-endpoints/:id/roll-secret",
  operationId: "rollWebhookEndpointSecret",
  summary: "Roll a webhook endpoint's signing secret",
  description:
    "Replaces the signing secret. For `overlap_hours` (default 24, 0 to 72) every request carries two signatures, " +
    "space-separated in `webhook-signature`: the new secret's and the previous one's, so the receiver can switch secrets without " +
    "missing a delivery; then only the new one. The new secret is in this answer only: a repeat with the same Idempotency-Key answers 409 IDEMPOTENCY_CONFLICT naming the endpoint, not the secret again. The body may be empty (`{}`).",
  tag: "Webhooks",
  permission: "write",
  permissionOnPlansWithout: "opportunities:read",
  params: webhookEndpointIdParams,
  body: rollSecretSchema,
  data: endpointWithSecretSchema,
  meta: webhookMetaSchema,
  idempotent: true,
  showsSecretOnce: true,
  example: { params: { id: "WEBHOOK_ENDPOINT_ID" }, body: { overlap_hours: 24 }, createdBy: "createWebhookEndpoint" },
  handler: async ({ actor, body, params, services, origin }) => ({
    data: await rollEndpointSecret(services, actor, params.id, body.overlap_hours, origin),
    meta: { mode: actor.mode },
  }),
});
