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

/**
 * Whole seconds from `observedMs` to `at`, the moment of the answer; 0 for data a venue stamped
 * ahead of this service's clock; null when the observation time is unknown.
 */
export function ageSeconds(observedMs: number, at: number): number | null {
  if (!Number.isFinite(observedMs)) return null;
  return Math.max(0, Math.floor((at - observedMs) / 1000));
}

/** What serving adds to a leg at the moment of an answer. */
export interface LegAtAnswer {
  stale: boolean;
  age_seconds: number | null;
}

/** A leg observed at `observedMs` as judged at `f.at`. */
export function legAtAnswer(observedMs: number, f: Freshness): LegAtAnswer {
  return { stale: isStale(observedMs, f), age_seconds: ageSeconds(observedMs, f.at) };
}

/** The opportunity as served, each leg with its age and stale flag as given, the item flagged when either leg is. */
export function servedOpportunity(item: Opportunity, long: LegAtAnswer, short: LegAtAnswer): ServedOpportunity {
  return { ...item, long: servedLeg(item.long, long), short: servedLeg(item.short, short), stale: long.stale || short.stale };
}

/** The opportunity as served at `f.at`, its legs' times read from them (`legObservedMs`, `asOf` for legs without one). */
export function servedAt(item: Opportunity, asOf: string | null, f: Freshness): ServedOpportunity {
  return servedOpportunity(item, legAtAnswer(legObservedMs(item.long, asOf), f), legAtAnswer(legObservedMs(item.short, asOf), f));
}

function servedLeg(leg: OpportunityLeg, at: LegAtAnswer): ServedLeg {
  return { ...leg, age_seconds: at.age_seconds, stale: at.stale };
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
