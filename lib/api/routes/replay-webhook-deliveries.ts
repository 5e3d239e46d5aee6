import { z } from "zod";
import { replayDeliveries } from "@/lib/webhooks/webhook-deliveries";
import { defineRoute } from "../route";
import { inMode, type OneInput, oneOf, webhookEndpoints } from "./mode-resources";

const replaySchema = z.strictObject({
  since: z.iso.datetime().describe("ISO 8601 UTC time: failed deliveries created since then, and events since then the endpoint never received, are queued."),
});

const replayResultSchema = z.object({
  endpoint_id: z.string(),
  since: z.iso.datetime(),
  failed_retried: z.number().int().describe("Failed deliveries queued for one more attempt."),
  missed_queued: z.number().int().describe("Events of the endpoint's types it had no delivery of, now queued as new deliveries."),
  has_more: z.boolean().describe("More remain than one replay queues (1,000): ask again with the same `since` once these are sent."),
});

// POST /v1/webhook-endpoints/:id/replay — queues again what the endpoint failed or missed since a time.
export const replayWebhookDeliveriesRoute = defineRoute({
  method: "POST",
  path: "/v1/webhook-endpoints/:id/replay",
  operationId: "replayWebhookDeliveries",
  summary: "Replay a webhook endpoint's failed and missed deliveries",
  description:
    "After fixing a receiver: queues one more attempt of every delivery to it that failed since " +
    "`since`, and a new delivery of every event of its types written since then (and after the endpoint was created) that it " +
    "never had, while it was disabled say. Each goes out as any delivery does, with its own webhook-id; the retry schedule's " +
    "3 days count from the delivery's creation. At most 1,000 a call (`has_more`). A disabled endpoint is enabled again " +
    "first, as PATCH with `{\"enabled\": true}` does. Counts as one of the 20 test events, redeliveries and replays an account " +
    "may ask for a minute.",
  tag: "Webhooks",
  permission: "write",
  permissionOnPlansWithout: "opportunities:read",
  ...oneOf(webhookEndpoints, { since: "2026-11-20T00:00:00Z" }),
  body: replaySchema,
  data: replayResultSchema,
  idempotent: true,
  handler: inMode(({ actor, params, body, services }: OneInput<typeof replaySchema>) => replayDeliveries(services, actor, params.id, new Date(body.since))),
});
