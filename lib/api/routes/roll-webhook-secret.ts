import { rollEndpointSecret } from "@/lib/webhooks/webhook-endpoints";
import { endpointWithSecretSchema, rollSecretSchema } from "@/lib/webhooks/webhook-schema";
import { defineRoute } from "../route";
import { inMode, type OneInput, oneOf, webhookEndpoints } from "./mode-resources";

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
  ...oneOf(webhookEndpoints, { overlap_hours: 24 }),
  body: rollSecretSchema,
  data: endpointWithSecretSchema,
  idempotent: true,
  showsSecretOnce: true,
  handler: inMode(({ actor, body, params, services, origin }: OneInput<typeof rollSecretSchema>) => rollEndpointSecret(services, actor, params.id, body.overlap_hours, origin)),
});
