import { z } from "zod";
import mapData from "./asset-map.json" with { type: "json" };
import { underlyingClassSchema, venueIdSchema, type UnderlyingClass } from "./types";

const ruleSchema = z.object({
  venue: venueIdSchema.optional(),
  class: underlyingClassSchema.default("crypto"),
  base: z.string().regex(/^[A-Z0-9]+$/, "a normalised base: capitals and digits"),
  asset: z.string().regex(/^[A-Z0-9]+$/, "an asset: capitals and digits"),
  why: z.string().min(1),
});

export const assetMapSchema = z.object({
  $comment: z.string().optional(),
  renames: z.array(ruleSchema),
  deny: z.array(ruleSchema),
});
export type AssetMapData = z.input<typeof assetMapSchema>;

/** Resolves a venue's normalised base to the asset it is paired as. */
export interface AssetMap {
  /** The asset `base` of `exchange`'s market of `underlying` (absent: crypto) is: a rename's, else `base`. */
  assetOf(exchange: string, base: string, underlying: UnderlyingClass | undefined): string;
}

const ANY_VENUE = "*";
const keyOf = (venue: string, underlying: UnderlyingClass, base: string) => `${venue}\u0000${underlying}\u0000${base}`;

/**
 * The map of `data`: a venue's own rule before one for every venue; a deny wins over both, so a
 * rename added for one venue's ticker can never make another venue's same ticker a different thing
 * (the main dex's SPX memecoin an S&P 500). Throws on a file that does not parse, or that renames a
 * market twice: the data is the service's own, read once at start-up.
 */
export function assetMap(data: AssetMapData): AssetMap {
  const parsed = assetMapSchema.parse(data);
  const renames = new Map<string, string>();
  for (const rule of parsed.renames) {
    const key = keyOf(rule.venue ?? ANY_VENUE, rule.class, rule.base);
    if (renames.has(key)) throw new Error(`asset map: ${rule.base} (${rule.class}, ${rule.venue ?? "every venue"}) is renamed twice`);
    renames.set(key, rule.asset);
  }
  const denied = new Set(parsed.deny.map((rule) => `${keyOf(rule.venue ?? ANY_VENUE, rule.class, rule.base)}\u0000${rule.asset}`));
  // Most bases have no rule: one set lookup settles them, without building a key.
  const named = new Set([...parsed.renames, ...parsed.deny].map((rule) => rule.base));
  return {
    assetOf(exchange, base, underlying = "crypto") {
      if (!named.has(base)) return base;
      const asset = renames.get(keyOf(exchange, underlying, base)) ?? renames.get(keyOf(ANY_VENUE, underlying, base)) ?? base;
      if (asset === base) return base;
      const deny = (venue: string) => denied.has(`${keyOf(venue, underlying, base)}\u0000${asset}`);
      return deny(exchange) || deny(ANY_VENUE) ? base : asset;
    },
  };
}

/** The service's map, from asset-map.json. */
export const ASSET_MAP: AssetMap = assetMap(mapData as AssetMapData);
