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

// Over plain numbers, NaN standing for an unknown price or time: the ranking asks these for each
// of a round's 450,000 pairs, where a null, or an object answered, was an allocation for each
// (100 MB of short-lived memory a round, collected on the round's thread).

/**
 * Price gap between the legs in basis points of their mean, positive when the short leg is the
 * dearer one (the pair is entered at a premium); NaN without a positive price on both sides.
 * Prices must be per unit of the same asset.
 */
export function spreadBpsOf(longPrice: number, shortPrice: number): number {
  if (!(longPrice > 0) || !(shortPrice > 0)) return Number.NaN;
  return ((shortPrice - longPrice) / ((shortPrice + longPrice) / 2)) * 10_000;
}

/**
 * Why the two legs' prices cannot be compared, or `null` when they can: a missing price first, then
 * an unknown time, then observations further apart than `toleranceMs` (inclusive), which measure
 * how the market moved between them rather than the gap between the venues.
 */
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
 * An opportunity's `price_spread_bps`, to 4 decimals, of legs `unavailableReasonOf` gives no reason
 * for (the caller asks it once, for the reason column too); the others have none.
 */
export function roundedSpreadBps(longPrice: number, shortPrice: number): number {
  return roundTo(spreadBpsOf(longPrice, shortPrice), 4);
}
