import type { Opportunity, OpportunityLeg, ServedLeg, ServedOpportunity } from "./types";

/**
 * The moment an answer is made and how old data may be by then: three ingestion intervals
 * (`Market.venueStaleAfterMs`). Legs are judged against it when they are served, never when the set
 * is published, because a published set can outlive its venues' freshness (ingestion stalls, every
 * venue fails and the previous set stays, a worker dies).
 */
export interface Freshness {
  /** Epoch ms of the answer. */
  at: number;
  staleAfterMs: number;
}

/**
 * When a leg's numbers are from, in epoch ms: its `observed_at`; for a leg of a set stored before
 * legs carried it, the set's `data_as_of`, which every number of the set was observed at or after;
 * `-Infinity` when neither is known, as nothing vouches for such a leg.
 */
export function legObservedMs(leg: Pick<OpportunityLeg, "observed_at">, asOf: string | null): number {
  const at = Date.parse(leg.observed_at ?? asOf ?? "");
  return Number.isNaN(at) ? -Infinity : at;
}

/** Whether data observed at `observedMs` is stale at `f.at`: strictly older than the threshold. */
export function isStale(observedMs: number, f: Freshness): boolean {
  return f.at - observedMs > f.staleAfterMs;
}

/** The first epoch ms at which data observed at `observedMs` is stale. */
export function staleFrom(observedMs: number, staleAfterMs: number): number {
  return observedMs + staleAfterMs + 1;
}

/** The opportunity as served, each leg flagged as given and the item flagged when either is. */
export function servedOpportunity(item: Opportunity, longStale: boolean, shortStale: boolean): ServedOpportunity {
  return { ...item, long: servedLeg(item.long, longStale), short: servedLeg(item.short, shortStale), stale: longStale || shortStale };
}

function servedLeg(leg: OpportunityLeg, stale: boolean): ServedLeg {
  return { ...leg, stale };
}

/**
 * The first moment after `f.at` at which one of the legs observed at `observedMs` turns stale, or
 * undefined when none will (every one is stale already): how long an answer serving them may be
 * reused before its flags would be wrong.
 */
export function nextStaleAt(observedMs: Iterable<number>, f: Freshness): number | undefined {
  let next: number | undefined;
  for (const observed of observedMs) {
    const from = staleFrom(observed, f.staleAfterMs);
    if (from > f.at && (next === undefined || from < next)) next = from;
  }
  return next;
}
