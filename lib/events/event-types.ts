import { z } from "zod";
import { KEY_MODES } from "@/lib/keys/mode";

/**
 * The change events push delivery is built on. Every published round (live) and every
 * sandbox tick (test) appends them to one append-only log, `MarketEvent`; `GET /v1/events`, the
 * `/v1/stream` Server-Sent Events and webhook deliveries all read that log, so nothing one of them
 * sees is missing from another.
 */
export const MARKET_EVENT_TYPES = [
  "opportunity.opened",
  "opportunity.updated",
  "opportunity.closed",
  "carry_opportunity.opened",
  "carry_opportunity.updated",
  "carry_opportunity.closed",
  "funding_interval.changed",
  "venue.stale",
  "venue.recovered",
] as const;
export type MarketEventType = (typeof MARKET_EVENT_TYPES)[number];

/**
 * Every event type: the market's, which every key of a mode sees, and `alert.triggered`, written
 * for one account when one of its alert rules matches a market event (lib/alerts/): only that
 * account's keys see it, and it goes to the rule's endpoints rather than to subscribers of a type.
 * `webhook_endpoint.disabled` is written for one account too, when the service disables one of its
 * endpoints after 3 days of failures (with an e-mail): on /v1/events and the stream, not delivered
 * by webhook (the endpoint it is about no longer receives anything).
 */
export const EVENT_TYPES = [...MARKET_EVENT_TYPES, "alert.triggered", "webhook_endpoint.disabled"] as const;
/** The types a webhook delivery can carry: every type but `webhook_endpoint.disabled`. */
export const WEBHOOK_EVENT_TYPES = [...MARKET_EVENT_TYPES, "alert.triggered"] as const;
export const eventTypeSchema = z.enum(EVENT_TYPES);
export type EventType = z.infer<typeof eventTypeSchema>;
export const marketEventTypeSchema = z.enum(MARKET_EVENT_TYPES);

/** How long events are kept by default (EVENTS_RETENTION_DAYS), and so how far back `after` and `Last-Event-ID` can resume. */
export const DEFAULT_EVENT_RETENTION_DAYS = 30;

/**
 * An event's public id: `evt_` and its log sequence, zero-padded to 16 digits so that ids sort as
 * text in the order they were written.
 */
export function eventId(sequence: bigint): string {
  return `evt_${sequence.toString().padStart(16, "0")}`;
}

/** The sequence an `evt_…` id names, or null when the text is not one. */
export function eventSequence(id: string): bigint | null {
  const match = /^evt_(\d{16})$/.exec(id);
  return match?.[1] ? BigInt(match[1]) : null;
}

/**
 * An event as the API, the stream and webhooks deliver it (Stripe's event object is the model):
 * `data` depends on `type` and is defined where events are derived (lib/events/).
 */
export const publicEventSchema = z.object({
  id: z.string().regex(/^evt_\d{16}$/),
  type: eventTypeSchema,
  mode: z.enum(KEY_MODES),
  created_at: z.iso.datetime(),
  test: z
    .literal(true)
    .optional()
    .describe("Present, and true, only on a test event sent by POST /v1/webhook-endpoints/{id}/test: its `data` is a sample of the type's shape."),
  data: z.record(z.string(), z.unknown()),
});
export type PublicEvent = z.infer<typeof publicEventSchema>;
