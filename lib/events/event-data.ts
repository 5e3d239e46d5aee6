import { z } from "zod";
import { fundingIntervalChangeSchema } from "@/lib/market/model/funding-interval-change";
import { carryOpportunitySchema, carryTypeSchema } from "@/lib/market/carry/carry-opportunity";
import { servedOpportunitySchema } from "@/lib/market/model/types";
import { EVENT_TYPES, marketEventTypeSchema, publicEventSchema, type EventType } from "./event-types";

/** What `opportunity.opened` carries: the opportunity as GET /v1/opportunities served it when the set was published. */
export const opportunityOpenedSchema = z.object({ opportunity: servedOpportunitySchema });

/** What `opportunity.updated` carries: the opportunity now, and its net APR in the previous set. */
export const opportunityUpdatedSchema = z.object({
  opportunity: servedOpportunitySchema,
  previous_net_apr: z.number().describe("`net_apr` in the previous published set, percent per year."),
});

const legRef = z.object({ exchange: z.string(), market: z.string() });

/** What `opportunity.closed` carries: which opportunity left the set and what it paid last. */
export const opportunityClosedSchema = z.object({
  id: z.string(),
  symbol: z.string(),
  long: legRef,
  short: legRef,
  last_apr: z.number().describe("`apr` in the last set that listed it."),
  last_net_apr: z.number().describe("`net_apr` in the last set that listed it."),
});

/** What `carry_opportunity.opened` carries: the carry opportunity as GET /v1/carry-opportunities served it when its set was published. */
export const carryOpportunityOpenedSchema = z.object({ opportunity: carryOpportunitySchema });

/** What `carry_opportunity.updated` carries: the carry opportunity now, and its net APR in the previous carry set. */
export const carryOpportunityUpdatedSchema = z.object({
  opportunity: carryOpportunitySchema,
  previous_net_apr: z.number().describe("`net_apr` in the previous published carry set, percent per year."),
});

/** What `carry_opportunity.closed` carries: which carry opportunity left the set and what it paid last. */
export const carryOpportunityClosedSchema = z.object({
  id: z.string(),
  symbol: z.string(),
  type: carryTypeSchema,
  spot: legRef,
  perp: legRef,
  last_apr: z.number().describe("`apr` in the last carry set that listed it."),
  last_net_apr: z.number().describe("`net_apr` in the last carry set that listed it."),
});

/** What `funding_interval.changed` carries: the change as GET /v1/funding-intervals lists it. */
export const fundingIntervalChangedSchema = z.object({ change: fundingIntervalChangeSchema });

/** What `venue.stale` and `venue.recovered` carry. */
export const venueHealthChangedSchema = z.object({
  exchange: z.string(),
  status: z.enum(["ok", "stale"]).describe("The venue's status from this event on."),
  last_success_at: z.iso.datetime().nullable().describe("ISO 8601 UTC start of its last successful refresh."),
  error: z.string().nullable().describe("Why its refresh failed (`venue.stale`); null on `venue.recovered`."),
});

/**
 * What `alert.triggered` carries: which rule fired, for which subject, and why: for an opportunity
 * rule the crossing (`transition`) and the opportunity as that set published it; for the other
 * kinds the market event that matched, whole.
 */
export const alertTriggeredSchema = z.object({
  rule: z.object({ id: z.string(), name: z.string() }).describe("The alert rule that matched (GET /v1/alert-rules/{id})."),
  subject: z
    .string()
    .describe(
      "What the rule's state and cool-down are kept per: the opportunity's id, `exchange:market` for an interval change, the exchange for a venue.",
    ),
  transition: z
    .enum(["entered", "cleared"])
    .describe(
      "`entered`: the subject crossed into the rule's condition (an event rule's match is one too); `cleared`: it left the condition " +
        "(opportunity rules with `notify_on_clear`).",
    ),
  opportunity: servedOpportunitySchema
    .nullable()
    .describe("Opportunity rules: the opportunity as the published set that crossed served it; null when it cleared by leaving the set, and for other kinds."),
  event: z
    .object({
      id: z.string(),
      type: marketEventTypeSchema,
      created_at: z.iso.datetime(),
      data: z.record(z.string(), z.unknown()),
    })
    .nullable()
    .describe("Event rules (funding_interval, venue): the market event that matched, as GET /v1/events lists it; null for opportunity rules."),
});

/** What `webhook_endpoint.disabled` carries: which endpoint the service disabled, and since when it had been failing. */
export const webhookEndpointDisabledSchema = z.object({
  endpoint: z.object({ id: z.string(), url: z.string(), description: z.string().nullable() }).describe("The endpoint (GET /v1/webhook-endpoints/{id})."),
  reason: z.enum(["failing"]).describe("Why: every delivery failed for 3 days."),
  failing_since: z.iso.datetime().describe("ISO 8601 UTC time of the first failed attempt after its last success."),
  disabled_at: z.iso.datetime(),
});

/** Each event type's `data`, the one definition the writers, the API and its documentation share. */
export const EVENT_DATA_SCHEMAS = {
  "opportunity.opened": opportunityOpenedSchema,
  "opportunity.updated": opportunityUpdatedSchema,
  "opportunity.closed": opportunityClosedSchema,
  "carry_opportunity.opened": carryOpportunityOpenedSchema,
  "carry_opportunity.updated": carryOpportunityUpdatedSchema,
  "carry_opportunity.closed": carryOpportunityClosedSchema,
  "funding_interval.changed": fundingIntervalChangedSchema,
  "venue.stale": venueHealthChangedSchema,
  "venue.recovered": venueHealthChangedSchema,
  "alert.triggered": alertTriggeredSchema,
  "webhook_endpoint.disabled": webhookEndpointDisabledSchema,
} as const satisfies Record<EventType, z.ZodType>;

/** An event before it is written: its type and `data` (the log gives it its id and time). */
export type NewEvent = {
  [T in EventType]: { type: T; data: z.infer<(typeof EVENT_DATA_SCHEMAS)[T]> };
}[EventType];

/**
 * Each event type's whole event, its `data` typed by `type`: what GET /v1/events lists, the stream
 * sends and a webhook POSTs. The OpenAPI document's `Event` is their `oneOf`, discriminated by
 * `type`, and its `webhooks` section one entry per type (lib/api/openapi/webhooks.ts).
 */
export const TYPED_EVENT_SCHEMAS = Object.fromEntries(
  EVENT_TYPES.map((type) => [type, publicEventSchema.extend({ type: z.literal(type), data: EVENT_DATA_SCHEMAS[type] })]),
) as unknown as { [T in EventType]: z.ZodObject };
