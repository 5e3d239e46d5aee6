import { z } from "zod";
import { underlyingClassSchema } from "./types";

/**
 * A leg the ranking left out because its per-unit mark strays from the other venues' for its asset
 * by more than PAIR_PRICE_BOUND (model/price-bound.ts): almost always a ticker naming another token
 * on that venue, or a bundle size read wrong, which the asset map (model/asset-map.json) then fixes.
 */
export const excludedLegSchema = z.object({
  exchange: z.string(),
  market: z.string(),
  venue_base: z.string().describe("The venue's own base, bundle prefix included (`1000NEIROCTO`)."),
  asset: z.string().describe("The asset it was ranked as, after the bundle size and the asset map."),
  underlying_class: underlyingClassSchema.optional(),
  unit_price: z.number().describe("Its mark per unit of the asset (the venue's mark over its bundle size)."),
  median_price: z.number().describe("The median per-unit mark of the asset's priced legs, this one included."),
});
export type ExcludedLeg = z.infer<typeof excludedLegSchema>;

/** How many legs a round lists (counts stay whole): a broken map can leave out hundreds. */
export const EXCLUDED_LEGS_LISTED = 500;

/** What a round stores of the legs it left out (`IngestionRound.excludedLegs`). */
export const storedExclusionsSchema = z.object({
  price_bound: z.number().positive(),
  /** Legs left out, per venue id: all of them, even beyond the list. */
  counts: z.record(z.string(), z.number().int().nonnegative()),
  legs: z.array(excludedLegSchema),
});
export type StoredExclusions = z.infer<typeof storedExclusionsSchema>;

/** The record a round stores: counts per venue, and the first EXCLUDED_LEGS_LISTED legs by venue, asset and market. */
export function storedExclusions(priceBound: number, legs: readonly ExcludedLeg[]): StoredExclusions {
  const counts: Record<string, number> = {};
  for (const leg of legs) counts[leg.exchange] = (counts[leg.exchange] ?? 0) + 1;
  const ordered = [...legs].sort((a, b) => compare(a.exchange, b.exchange) || compare(a.asset, b.asset) || compare(a.market, b.market));
  return { price_bound: priceBound, counts, legs: ordered.slice(0, EXCLUDED_LEGS_LISTED) };
}

/** The newest published round's exclusions by venue, as the operator console and the health details show them. */
export const pairingExclusionsSchema = z.object({
  round_id: z.string(),
  round_started_at: z.iso.datetime(),
  price_bound: z.number().positive(),
  venues: z.array(z.object({ exchange: z.string(), excluded: z.number().int().positive(), legs: z.array(excludedLegSchema) })),
});
export type PairingExclusions = z.infer<typeof pairingExclusionsSchema>;

/** A stored record grouped by venue, the venue with the most legs left out first. */
export function exclusionsByVenue(stored: StoredExclusions, round: { id: string; startedAt: Date }): PairingExclusions {
  const venues = Object.entries(stored.counts)
    .filter(([, excluded]) => excluded > 0)
    .sort(([a, x], [b, y]) => y - x || compare(a, b))
    .map(([exchange, excluded]) => ({ exchange, excluded, legs: stored.legs.filter((leg) => leg.exchange === exchange) }));
  return { round_id: round.id, round_started_at: round.startedAt.toISOString(), price_bound: stored.price_bound, venues };
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
