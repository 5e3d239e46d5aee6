import { toFundingIntervalChange } from "@/lib/market/funding-interval-change";
import type { IntervalChangeRow } from "@/lib/market/ingest/detect-interval-changes";
import { isStale, legObservedMs, servedOpportunity, type Freshness } from "@/lib/market/leg-freshness";
import type { Opportunity, ServedOpportunity } from "@/lib/market/types";
import type { NewEvent } from "./event-data";

/** The default of EVENTS_NET_APR_THRESHOLD: net APR moves smaller than this (in APR points) are noise, not news. */
export const DEFAULT_NET_APR_THRESHOLD = 5;

// Net APRs are rounded to a few decimals; a move of exactly the threshold must count whatever the float error.
const EPSILON = 1e-9;

export interface OpportunityDiffOptions {
  /** `opportunity.updated` when |net APR now − net APR before| is at least this many APR points. */
  threshold: number;
  /** When the new set is published and how old a leg may be, for the served items' `stale` flags. */
  freshness: Freshness;
  /** The new set's `data_as_of`, for legs without their own observation time. */
  asOf: string | null;
}

/**
 * What the diff needs of an item of the set being replaced: an Opportunity is one, and the live
 * writer keeps only these fields between rounds (a few MB for 150k items, not the items themselves).
 */
export interface OpportunitySummary {
  id: string;
  symbol: string;
  apr: number;
  net_apr: number;
  long: { exchange: string; market: string };
  short: { exchange: string; market: string };
}

/** The fields of an item the next diff reads; the strings are shared with the item, not copied. */
export function summarize(item: OpportunitySummary): OpportunitySummary {
  return {
    id: item.id,
    symbol: item.symbol,
    apr: item.apr,
    net_apr: item.net_apr,
    long: { exchange: item.long.exchange, market: item.long.market },
    short: { exchange: item.short.exchange, market: item.short.market },
  };
}

/**
 * The opportunity events between two consecutive published sets, by id: in the new set only
 * `opportunity.opened`, in both with net APR moved by at least the threshold `opportunity.updated`,
 * in the old set only `opportunity.closed`. One pass over each set with a Map, since a live set
 * holds ~150k items; opened and updated in the new set's order, then closed in the old set's. Pure.
 */
export function opportunityEvents(previous: readonly OpportunitySummary[], current: readonly Opportunity[], options: OpportunityDiffOptions): NewEvent[] {
  const before = new Map<string, OpportunitySummary>();
  for (const item of previous) before.set(item.id, item);
  const events: NewEvent[] = [];
  const served = (item: Opportunity): ServedOpportunity =>
    servedOpportunity(item, isStale(legObservedMs(item.long, options.asOf), options.freshness), isStale(legObservedMs(item.short, options.asOf), options.freshness));
  for (const item of current) {
    const old = before.get(item.id);
    if (old === undefined) {
      events.push({ type: "opportunity.opened", data: { opportunity: served(item) } });
    } else {
      before.delete(item.id);
      if (Math.abs(item.net_apr - old.net_apr) + EPSILON >= options.threshold) {
        events.push({ type: "opportunity.updated", data: { opportunity: served(item), previous_net_apr: old.net_apr } });
      }
    }
  }
  // What is left in `before` is in the old set only.
  for (const old of before.values()) {
    events.push({
      type: "opportunity.closed",
      data: {
        id: old.id,
        symbol: old.symbol,
        long: { exchange: old.long.exchange, market: old.long.market },
        short: { exchange: old.short.exchange, market: old.short.market },
        last_apr: old.apr,
        last_net_apr: old.net_apr,
      },
    });
  }
  return events;
}

/** One `funding_interval.changed` per change a round (or a sandbox tick) detected, as GET /v1/funding-intervals serves it. Pure. */
export function intervalChangeEvents(changes: readonly IntervalChangeRow[]): NewEvent[] {
  return changes.map((row) => ({ type: "funding_interval.changed", data: { change: toFundingIntervalChange(row) } }));
}

/** A venue's health as the log compares it: its status after a refresh and its last success. */
export interface VenueState {
  status: "ok" | "stale";
  lastSuccessAt: Date | null;
  error: string | null;
}

/**
 * `venue.stale` for a venue that was ok and is now stale, `venue.recovered` for the reverse, in the
 * order of `after`. A venue with no earlier state (its first refresh) changed nothing. Pure.
 */
export function venueHealthEvents(before: ReadonlyMap<string, VenueState>, after: readonly (VenueState & { exchange: string })[]): NewEvent[] {
  const events: NewEvent[] = [];
  for (const venue of after) {
    const was = before.get(venue.exchange);
    if (!was || was.status === venue.status) continue;
    const data = {
      exchange: venue.exchange,
      status: venue.status,
      last_success_at: venue.lastSuccessAt?.toISOString() ?? null,
      error: venue.status === "stale" ? venue.error : null,
    };
    events.push(venue.status === "stale" ? { type: "venue.stale", data } : { type: "venue.recovered", data });
  }
  return events;
}
