import { toFundingIntervalChange } from "@/lib/market/funding-interval-change";
import type { IntervalChangeRow } from "@/lib/market/ingest/detect-interval-changes";
import { isStale, legObservedMs, servedOpportunity, type Freshness } from "@/lib/market/leg-freshness";
import { idReader, itemReader, type OpportunityColumns } from "@/lib/market/opportunity-columns";
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
 * The opportunity events between two consecutive published sets, by id: in the new set only
 * `opportunity.opened`, in both with net APR moved by at least the threshold `opportunity.updated`,
 * in the old set only `opportunity.closed`. One pass over each set's columns with a Map of ids
 * (a live set holds ~150k items; only the items an event carries are built as objects); opened
 * and updated in the new set's order, then closed in the old set's. Pure.
 */
export function opportunityEvents(previous: OpportunityColumns, current: OpportunityColumns, options: OpportunityDiffOptions): NewEvent[] {
  const [identityBefore, identityNow] = identities(previous, current);
  const before = new Map<string | number, number>();
  for (let i = 0; i < previous.count; i++) before.set(identityBefore(i), i);
  const events: NewEvent[] = [];
  const item = itemReader(current);
  const served = (i: number): ServedOpportunity => {
    const opportunity = item(i);
    const stale = (leg: Opportunity["long"]) => isStale(legObservedMs(leg, options.asOf), options.freshness);
    return servedOpportunity(opportunity, stale(opportunity.long), stale(opportunity.short));
  };
  const [netNow, netBefore] = [current.net_apr.values, previous.net_apr.values];
  for (let i = 0; i < current.count; i++) {
    const identity = identityNow(i);
    const old = before.get(identity);
    if (old === undefined) {
      events.push({ type: "opportunity.opened", data: { opportunity: served(i) } });
    } else {
      before.delete(identity);
      if (Math.abs(netNow[i]! - netBefore[old]!) + EPSILON >= options.threshold) {
        events.push({ type: "opportunity.updated", data: { opportunity: served(i), previous_net_apr: netBefore[old]! } });
      }
    }
  }
  // What is left in `before` is in the old set only.
  const idBefore = idReader(previous);
  for (const old of before.values()) {
    const [long, short] = [previous.legs[previous.long[old]!]!, previous.legs[previous.short[old]!]!];
    events.push({
      type: "opportunity.closed",
      data: {
        id: idBefore(old),
        symbol: previous.texts[previous.symbol[old]!]!,
        long: { exchange: long.exchange, market: long.market },
        short: { exchange: short.exchange, market: short.market },
        last_apr: previous.apr.values[old]!,
        last_net_apr: netBefore[old]!,
      },
    });
  }
  return events;
}

/** How many venues and assets a number identity has room for (`identities`). */
const VENUE_PLACES = 2 ** 12;
const ASSET_PLACES = 2 ** 28;

/**
 * Each item's identity in the diff: its id; or, when both sets' ids are the standard
 * `symbol-long-short` (`OpportunityColumns.ids` null, as ranked sets' are), a number made of the
 * places of its asset and its two venues, so 150,000 ids need neither be built nor hashed as texts.
 */
function identities(previous: OpportunityColumns, current: OpportunityColumns): [(i: number) => string | number, (i: number) => string | number] {
  if (previous.ids || current.ids) return [idReader(previous), idReader(current)];
  const [assetPlaces, venuePlaces] = [new Map<string, number>(), new Map<string, number>()];
  const place = (names: Map<string, number>, name: string) => {
    let at = names.get(name);
    if (at === undefined) names.set(name, (at = names.size));
    return at;
  };
  const numbered = (set: OpportunityColumns) => {
    const assets = set.texts.map((text) => place(assetPlaces, text));
    const venues = set.legs.map((leg) => place(venuePlaces, leg.exchange));
    return (i: number) => (assets[set.symbol[i]!]! * VENUE_PLACES + venues[set.long[i]!]!) * VENUE_PLACES + venues[set.short[i]!]!;
  };
  const [before, now] = [numbered(previous), numbered(current)];
  if (venuePlaces.size > VENUE_PLACES || assetPlaces.size > ASSET_PLACES) return [idReader(previous), idReader(current)];
  return [before, now];
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
