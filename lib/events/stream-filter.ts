import { z } from "zod";
import { opportunitiesQuery } from "@/lib/market/opportunities/opportunity-query";
import type { KeyMode } from "@/lib/keys/mode";
import { eventIdParam, eventTypesParam } from "./event-query";
import type { EventType, PublicEvent } from "./event-types";

const { exchange, exchanges, min_apr, symbol } = opportunitiesQuery.shape;

/** The query of GET /v1/stream: GET /v1/opportunities' filters (without paging and sort), `types` and `after`. */
export const streamQuery = z.strictObject({
  exchange: exchange.describe(
    "Only events about this exchange: opportunities with a leg on it, its markets' interval changes, its health.",
  ),
  exchanges: exchanges.describe(
    "Only events within these exchanges, separated by commas: opportunities with both legs on them, their markets' interval " +
      "changes and their health.",
  ),
  min_apr: min_apr.describe(
    "Only opportunity events whose gross `apr` is at least this, in percent per year (for `opportunity.closed`, its last `apr`). " +
      "Other event types pass.",
  ),
  symbol: symbol.describe("Only events about this base asset, e.g. BTC (opportunities and interval changes; venue events pass)."),
  types: eventTypesParam().optional().describe("Only these event types, separated by commas."),
  after: eventIdParam()
    .optional()
    .describe("Resume after this event id: what was written since is replayed first. The `Last-Event-ID` header, when sent, wins."),
});
export type StreamQuery = z.infer<typeof streamQuery>;

export interface StreamFilter {
  mode: KeyMode;
  types?: readonly EventType[];
  exchange?: string;
  exchanges?: readonly string[];
  min_apr?: number;
  symbol?: string;
}

interface Subject {
  exchanges: string[];
  symbol?: string;
  apr?: number;
}

/**
 * What an event is about, for the filters: its exchanges (both legs for an opportunity), its asset,
 * its APR. An alert is about the opportunity that crossed, or what the market event it matched is about.
 */
function subjectOf(event: Pick<PublicEvent, "type" | "data">): Subject {
  const data = event.data as Record<string, unknown>;
  switch (event.type) {
    case "alert.triggered": {
      if (data.event) return subjectOf(data.event as Pick<PublicEvent, "type" | "data">);
      if (data.opportunity) return subjectOf({ type: "opportunity.opened", data: { opportunity: data.opportunity } });
      // Cleared by leaving the set: its id is `symbol-long-short`, but only the filters' types can judge it.
      return { exchanges: [] };
    }
    case "opportunity.opened":
    case "opportunity.updated": {
      const o = data.opportunity as { symbol: string; apr: number; long: { exchange: string }; short: { exchange: string } };
      return { exchanges: [o.long.exchange, o.short.exchange], symbol: o.symbol, apr: o.apr };
    }
    case "opportunity.closed": {
      const o = data as { symbol: string; last_apr: number; long: { exchange: string }; short: { exchange: string } };
      return { exchanges: [o.long.exchange, o.short.exchange], symbol: o.symbol, apr: o.last_apr };
    }
    case "carry_opportunity.opened":
    case "carry_opportunity.updated": {
      const o = data.opportunity as { symbol: string; apr: number; spot: { exchange: string }; perp: { exchange: string } };
      return { exchanges: [o.spot.exchange, o.perp.exchange], symbol: o.symbol, apr: o.apr };
    }
    case "carry_opportunity.closed": {
      const o = data as { symbol: string; last_apr: number; spot: { exchange: string }; perp: { exchange: string } };
      return { exchanges: [o.spot.exchange, o.perp.exchange], symbol: o.symbol, apr: o.last_apr };
    }
    case "funding_interval.changed": {
      const change = data.change as { exchange: string; symbol: string };
      return { exchanges: [change.exchange], symbol: change.symbol };
    }
    default:
      return { exchanges: [data.exchange as string] };
  }
}

/**
 * Whether a stream with `filter` delivers `event`: the key's mode, the types asked for, then the
 * opportunity filters where the event has what they test (a filter an event type has nothing to do
 * with lets it pass: `min_apr` a venue event, `symbol` a venue event). `exchange` matches any of the
 * event's exchanges, `exchanges` needs all of them among the list, as GET /v1/opportunities does. Pure.
 */
export function streamMatches(event: PublicEvent, filter: StreamFilter): boolean {
  if (event.mode !== filter.mode) return false;
  if (filter.types && !filter.types.includes(event.type)) return false;
  if (filter.exchange === undefined && filter.exchanges === undefined && filter.min_apr === undefined && filter.symbol === undefined) return true;
  const subject = subjectOf(event);
  if (filter.exchange !== undefined && !subject.exchanges.includes(filter.exchange)) return false;
  if (filter.exchanges !== undefined && !subject.exchanges.every((e) => filter.exchanges!.includes(e))) return false;
  if (filter.symbol !== undefined && subject.symbol !== undefined && subject.symbol !== filter.symbol) return false;
  if (filter.min_apr !== undefined && subject.apr !== undefined && subject.apr < filter.min_apr) return false;
  return true;
}
