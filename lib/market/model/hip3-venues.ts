/**
 * Hyperliquid's HIP-3 dexes served as venues of their own: each is a separate order book with its
 * own collateral, oracle, funding multipliers and fees, so each counts as a venue
 * (`hyperliquid:<dex>`), beside the main dex (`hyperliquid`).
 *
 * The list is static, and the venue's own `perpDexs` answer confirms it on every refresh
 * (connectors/hyperliquid-hip3.ts): a venue id is a type the API's enums, the request budgets, the
 * fee table and the stored rows are all keyed by, and an id that appeared at run time would reach
 * none of them. A dex `perpDexs` no longer lists goes stale with that reason; a dex it lists that
 * is not here is named in a warning, to be added to this list. Inactive or test dexes (`abcd`, one
 * market with no open interest, volume or book in the May 2026 recording) are left out.
 *
 * Why a colon: ids elsewhere use `-` as a separator (an opportunity's id is `symbol-long-short`, and
 * the ranking's id order is exact only while no venue has a `-` in its name), while no key of this
 * service is split on `:` (a market key joins exchange and market with a NUL; a leg's market symbol
 * already holds a colon).
 */
export const HIP3_DEXES = ["xyz", "flx", "vntl", "hyna", "km", "cash", "para"] as const;
export type Hip3Dex = (typeof HIP3_DEXES)[number];

/** Dexes `perpDexs` lists that are left out on purpose, and why (no warning names them). */
export const HIP3_LEFT_OUT: Readonly<Record<string, string>> = {
  abcd: "a test dex: its one market had no open interest, volume or book in the May 2026 recording",
};

/** The venue ids of HIP3_DEXES, in the same order (spelt out: VENUE_IDS needs the literal types). */
export const HIP3_VENUE_IDS = [
  "hyperliquid:xyz",
  "hyperliquid:flx",
  "hyperliquid:vntl",
  "hyperliquid:hyna",
  "hyperliquid:km",
  "hyperliquid:cash",
  "hyperliquid:para",
] as const satisfies readonly `hyperliquid:${Hip3Dex}`[];
export type Hip3VenueId = (typeof HIP3_VENUE_IDS)[number];

/** The dex of a HIP-3 venue id (`xyz` of `hyperliquid:xyz`); undefined for any other venue. */
export function hip3DexOf(venue: string): Hip3Dex | undefined {
  const index = (HIP3_VENUE_IDS as readonly string[]).indexOf(venue);
  return index < 0 ? undefined : HIP3_DEXES[index];
}

export function isHip3Venue(venue: string): venue is Hip3VenueId {
  return hip3DexOf(venue) !== undefined;
}
