import { AppError } from "@/lib/errors";
import type { OpportunityColumns } from "./encoding/columns";

// At 46 venues an asset has up to 40 legs and 780 pairs, and a funding change on one venue moves 39
// of them. A micro-batch re-ranking whole assets re-ranked, diffed, stored and applied twenty
// times the pairs that changed; so an asset whose change is on a few venues is re-ranked in part.

/**
 * Of a batch's assets (`bases`), those re-ranked in part, each with the venues whose markets
 * changed: of such an asset only the pairs with a leg on one of those venues are replaced (its
 * other pairs are the same pairs of the same markets). An asset of `bases` not here is replaced whole.
 */
export type PartialAssets = ReadonlyMap<string, ReadonlySet<string>>;

/** The pairs some batches replaced: every pair of `bases`, but of an asset in `partial` only those with a leg on one of its venues there. */
export interface PairScope {
  bases: ReadonlySet<string>;
  partial: PartialAssets;
}

/** Whether a pair long on `long` and short on `short` has a leg on one of `venues`. */
export function hasLegOn(venues: ReadonlySet<string>, long: string, short: string): boolean {
  return venues.has(long) || venues.has(short);
}

/** Whether a batch of `bases` and `partial` replaces the pair of `symbol` long on `long` and short on `short`. */
export function replacesPair(bases: ReadonlySet<string>, partial: PartialAssets | undefined, symbol: string, long: string, short: string): boolean {
  if (!bases.has(symbol)) return false;
  const venues = partial?.get(symbol);
  return !venues || hasLegOn(venues, long, short);
}

/**
 * `replacesPair` for the rows of `set`: whether row `i` is replaced. The assets' and venues'
 * membership is looked up once per text and leg position, not per row.
 */
export function replacedRows(set: OpportunityColumns, bases: ReadonlySet<string>, partial: PartialAssets | undefined): (i: number) => boolean {
  const venuesAt = set.texts.map((text) => (bases.has(text) ? (partial?.get(text) ?? null) : undefined));
  if (!partial || partial.size === 0) return (i) => venuesAt[set.symbol[i]!] !== undefined;
  const exchangeAt = set.legs.map((leg) => leg.exchange);
  return (i) => {
    const venues = venuesAt[set.symbol[i]!];
    if (venues === undefined) return false;
    return venues === null || hasLegOn(venues, exchangeAt[set.long[i]!]!, exchangeAt[set.short[i]!]!);
  };
}

/** The stored form of `partial` (an OpportunityPatch's `venues`, JSON text): each asset's venues, sorted; null when none. */
export function partialToJson(partial: PartialAssets | undefined): string | null {
  if (!partial || partial.size === 0) return null;
  return JSON.stringify(Object.fromEntries([...partial].map(([asset, venues]) => [asset, [...venues].sort()])));
}

/** `partialToJson` read back; none (every asset whole) for a patch written without it. */
export function partialFromJson(stored: unknown): PartialAssets {
  if (stored === null || stored === undefined) return new Map();
  if (typeof stored !== "object" || Array.isArray(stored)) throw new AppError("INTERNAL_ERROR", "an opportunity patch's venues are not an object of asset → venues");
  return new Map(
    Object.entries(stored as Record<string, unknown>).map(([asset, venues]) => {
      if (!Array.isArray(venues) || !venues.every((v) => typeof v === "string")) throw new AppError("INTERNAL_ERROR", `an opportunity patch's venues of ${asset} are not a list of names`);
      return [asset, new Set(venues)];
    }),
  );
}
