import { createEndpoint } from "@/lib/webhooks/webhook-endpoints";
import { endpointInputSchema, endpointWithSecretSchema } from "@/lib/webhooks/webhook-schema";
import { webhookMetaSchema } from "../openapi/shared-schemas";
import { perPlan } from "@/lib/plans";
import { defineRoute } from "../route";

// POST /v1/webhook-endpoints — adds an endpoint; its signing secret is in this answer only.
export const createWebhookEndpointRoute = defineRoute({
  method: "POST",
  path: "/v1/webhook-endpoints",
  operationId: "createWebhookEndpoint",
  summary: "Add a webhook endpoint",
  description:
    "Events of the chosen `event_types` written from now on are POSTed to `url` (https://), one request per event, with the " +
    "Standard Webhooks headers `webhook-id` (the delivery's id), `webhook-timestamp` and `webhook-signature` " +
    "(`v1,` + base64 HMAC-SHA256 of `id.timestamp.body` keyed with the base64-decoded part of the secret after `whsec_`). " +
    "The body is the event as GET /v1/events lists it. A 2xx answer within 10 s is a delivery; anything else is retried " +
    "5 s, 1 min, 5 min, 30 min, 1 h, 2 h, 4 h, 8 h, 8 h and four times 12 h later (±10 %), for at most 3 days; redirects are not followed. " +
    "The answer carries `secret` (whsec_…), shown only here: a repeat with the same Idempotency-Key answers 409 IDEMPOTENCY_CONFLICT naming the endpoint, not the secret again. Live keys add live endpoints, test keys test endpoints (sandbox " +
    `events). Endpoints per mode: ${perPlan("webhooks", (plan) => plan.webhookEndpoints)}; one more is 403 FORBIDDEN naming the cap; a URL whose host is a private, ` +
    "loopback or link-local address is refused.",
  tag: "Webhooks",
  permission: "write",
  permissionOnPlansWithout: "opportunities:read",
  body: endpointInputSchema,
  data: endpointWithSecretSchema,
  meta: webhookMetaSchema,
  status: 201,
  location: "/v1/webhook-endpoints/:id",
  idempotent: true,
  showsSecretOnce: true,
  example: { body: { url: "https://example.com/hooks/funding", event_types: ["opportunity.opened", "opportunity.closed"], description: "Trading bot" } },
  handler: async ({ actor, body, services, origin }) => ({
    data: await createEndpoint(services, actor, body, origin),
    meta: { mode: actor.mode },
  }),
});
