import type { ServedLeg } from "./types";

/** What a leg's field's time is: when its numbers were observed, or a moment the field itself names. */
export type FieldTimeBasis = "observed" | "settled" | "changed" | "listing";

export interface FieldAge {
  basis: FieldTimeBasis;
  /** ISO 8601 UTC the field's value is from; null when not known (or, for `listing`, not timed). */
  at: string | null;
  /** Whole seconds from `at` to the answer's moment; null when `at` is. */
  age_seconds: number | null;
}

/**
 * The fields a leg's one observation carries (rate, forecast, bounds, prices, sizes): all as old as
 * the leg's `observed_at`, whose age the answer already computed (`age_seconds`, judged at its
 * moment), so these repeat that age rather than computing their own.
 */
const OBSERVED = [
  "funding_rate",
  "funding_interval_hours",
  "funding_interval_source",
  "funding_rate_per_hour",
  "predicted_funding_rate",
  "rate_cap",
  "rate_floor",
  "at_cap",
  "next_funding_at",
  "mark_price",
  "open_interest_usd",
  "volume_24h_usd",
  "transport",
] as const satisfies readonly (keyof ServedLeg)[];

export type TimedLegField = (typeof OBSERVED)[number] | "last_settled_rate" | "last_settled_at" | "interval_changed_at" | "exchange" | "market" | "underlying_class" | "trading_hours";

/**
 * How old each field of a served leg is at `atMs`, the moment the leg was served at: the
 * observation's fields by its `observed_at` and `age_seconds`; the last settlement by its own
 * time (the service recorded it when it happened, however recently the leg was observed); the
 * interval change by when it took effect; the venue, market, class and trading hours describe the
 * listing and have no age.
 * Pure.
 */
export function legFieldAges(leg: ServedLeg, atMs: number): Record<TimedLegField, FieldAge> {
  const observed: FieldAge = { basis: "observed", at: leg.observed_at, age_seconds: leg.age_seconds };
  const since = (at: string | null): number | null => {
    const ms = at === null ? Number.NaN : Date.parse(at);
    return Number.isNaN(ms) ? null : Math.max(0, Math.floor((atMs - ms) / 1000));
  };
  const settled: FieldAge = { basis: "settled", at: leg.last_settled_at, age_seconds: since(leg.last_settled_at) };
  const listing: FieldAge = { basis: "listing", at: null, age_seconds: null };
  return {
    ...(Object.fromEntries(OBSERVED.map((field) => [field, observed])) as Record<(typeof OBSERVED)[number], FieldAge>),
    last_settled_rate: settled,
    last_settled_at: settled,
    interval_changed_at: { basis: "changed", at: leg.interval_changed_at, age_seconds: since(leg.interval_changed_at) },
    exchange: listing,
    market: listing,
    underlying_class: listing,
    trading_hours: listing,
  };
}
