import { z } from "zod";
import { roundTo } from "@/lib/round";

/**
 * How far apart two legs' observations may be for their prices to be compared: 30 seconds.
 *
 * - Legs of one ingestion round are fetched in parallel, each under a 10 s deadline
 *   (INGEST_VENUE_TIMEOUT_MS), so healthy venues are a few seconds apart; 30 s leaves room for
 *   venues' payload clocks and slow answers.
 * - It is half the default round interval (INGEST_INTERVAL_MS, 60 s), so a leg whose venue served
 *   a number from an earlier refresh, or a recording from another day, never passes.
 * - A major asset moves about 5 bps in 30 s (50 % annual volatility), already the size of the
 *   spreads being measured; further apart, the number is mostly the market's move between the
 *   observations, not the venues' price difference.
 */
export const PRICE_OBSERVATION_TOLERANCE_MS = 30_000;

/**
 * Why an opportunity has no `price_spread_bps`:
 * - `price_missing`: a leg's venue gave no usable mark price;
 * - `legs_observed_apart`: the legs were observed further apart than the tolerance
 *   (PRICE_OBSERVATION_TOLERANCE_MS), so their prices are of different moments;
 * - `observation_time_unknown`: when a leg was observed is not known, so it cannot be shown to be
 *   the same moment as the other.
 */
export const PRICE_SPREAD_UNAVAILABLE_REASONS = ["price_missing", "legs_observed_apart", "observation_time_unknown"] as const;
export const priceSpreadUnavailableReasonSchema = z.enum(PRICE_SPREAD_UNAVAILABLE_REASONS);
export type PriceSpreadUnavailableReason = z.infer<typeof priceSpreadUnavailableReasonSchema>;

/** One leg's price as the spread needs it: per unit of the asset, and when it was observed. */
export interface PricedLeg {
  /** Mark price per underlying unit; `null` when the venue gave none. */
  unitPrice: number | null;
  /** Epoch ms; `null` when it is not known when the leg was observed. */
  observedAt: number | null;
}

export interface PriceSpread {
  price_spread_bps: number | null;
  price_spread_unavailable_reason: PriceSpreadUnavailableReason | null;
}

/**
 * Price gap between the legs in basis points of their mean, positive when the short leg is the
 * dearer one (the pair is entered at a premium). Prices must be per unit of the same asset.
 */
export function priceSpreadBps(longPrice: number | null, shortPrice: number | null): number | null {
  if (longPrice === null || shortPrice === null || !(longPrice > 0) || !(shortPrice > 0)) return null;
  return ((shortPrice - longPrice) / ((shortPrice + longPrice) / 2)) * 10_000;
}

/**
 * Whether two observations are of the same moment, within `toleranceMs` inclusive. An unknown
 * time is never the same moment as anything: a spread that cannot be dated is not given.
 */
export function observedTogether(
  a: number | null,
  b: number | null,
  toleranceMs: number = PRICE_OBSERVATION_TOLERANCE_MS,
): boolean {
  return a !== null && b !== null && Math.abs(a - b) <= toleranceMs;
}

/** Why the two legs' prices cannot be compared, or `null` when they can. A missing price comes first. */
export function priceSpreadUnavailableReason(
  long: PricedLeg,
  short: PricedLeg,
  toleranceMs: number = PRICE_OBSERVATION_TOLERANCE_MS,
): PriceSpreadUnavailableReason | null {
  if (priceSpreadBps(long.unitPrice, short.unitPrice) === null) return "price_missing";
  if (long.observedAt === null || short.observedAt === null) return "observation_time_unknown";
  return observedTogether(long.observedAt, short.observedAt, toleranceMs) ? null : "legs_observed_apart";
}

/**
 * The opportunity's `price_spread_bps` (4 decimals) and the reason it is `null`: a spread is
 * only given for prices of the same moment, since two observations far apart measure how the
 * market moved between them rather than the gap between the venues.
 */
export function priceSpread(long: PricedLeg, short: PricedLeg, toleranceMs: number = PRICE_OBSERVATION_TOLERANCE_MS): PriceSpread {
  const reason = priceSpreadUnavailableReason(long, short, toleranceMs);
  const bps = reason === null ? priceSpreadBps(long.unitPrice, short.unitPrice) : null;
  return {
    price_spread_bps: bps === null ? null : roundTo(bps, 4),
    price_spread_unavailable_reason: reason,
  };
}
