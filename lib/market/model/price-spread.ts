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

/**
 * Price gap between the legs in basis points of their mean, positive when the short leg is the
 * dearer one (the pair is entered at a premium). Prices must be per unit of the same asset.
 */
export function priceSpreadBps(longPrice: number | null, shortPrice: number | null): number | null {
  const bps = spreadBpsOf(longPrice ?? Number.NaN, shortPrice ?? Number.NaN);
  return Number.isNaN(bps) ? null : bps;
}

/** Why the two legs' prices cannot be compared, or `null` when they can. A missing price comes first. */
export function priceSpreadUnavailableReason(
  long: PricedLeg,
  short: PricedLeg,
  toleranceMs: number = PRICE_OBSERVATION_TOLERANCE_MS,
): PriceSpreadUnavailableReason | null {
  return unavailableReasonOf(long.unitPrice ?? Number.NaN, long.observedAt ?? Number.NaN, short.unitPrice ?? Number.NaN, short.observedAt ?? Number.NaN, toleranceMs);
}

// The same rules over plain numbers, NaN standing for an unknown price or time: what the ranking
// calls for each of a round's 450,000 pairs, where a null, or an object answered, was an allocation
// for each (100 MB of short-lived memory a round, collected on the round's thread).

/** `priceSpreadBps`, NaN where it is null. */
export function spreadBpsOf(longPrice: number, shortPrice: number): number {
  if (!(longPrice > 0) || !(shortPrice > 0)) return Number.NaN;
  return ((shortPrice - longPrice) / ((shortPrice + longPrice) / 2)) * 10_000;
}

/** `priceSpreadUnavailableReason` of two legs' prices and observation times. */
export function unavailableReasonOf(
  longPrice: number,
  longAt: number,
  shortPrice: number,
  shortAt: number,
  toleranceMs: number = PRICE_OBSERVATION_TOLERANCE_MS,
): PriceSpreadUnavailableReason | null {
  if (Number.isNaN(spreadBpsOf(longPrice, shortPrice))) return "price_missing";
  if (Number.isNaN(longAt) || Number.isNaN(shortAt)) return "observation_time_unknown";
  return Math.abs(longAt - shortAt) <= toleranceMs ? null : "legs_observed_apart";
}

/**
 * An opportunity's `price_spread_bps`, to 4 decimals, NaN where `unavailableReasonOf` gives a
 * reason: a spread is only given for prices of the same moment, since two observations far apart
 * measure how the market moved between them rather than the gap between the venues.
 */
export function roundedSpreadBps(longPrice: number, longAt: number, shortPrice: number, shortAt: number, toleranceMs: number = PRICE_OBSERVATION_TOLERANCE_MS): number {
  return unavailableReasonOf(longPrice, longAt, shortPrice, shortAt, toleranceMs) === null ? roundTo(spreadBpsOf(longPrice, shortPrice), 4) : Number.NaN;
}
