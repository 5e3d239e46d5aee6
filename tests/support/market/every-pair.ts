import { itemsOf, type OpportunityColumns } from "@/lib/market/opportunities/encoding/columns";
import type { PatchedSet } from "@/lib/market/opportunities/patched-set";

/**
 * Every current pair of `set` as one set in set order: its pairs of every asset it has (`rowsOf`),
 * as a reader applying its batches' patches to the round's set holds them.
 */
export function everyPair(set: PatchedSet): OpportunityColumns {
  return set.rowsOf(new Set([...itemsOf(set.roundSet).map((o) => o.symbol), ...set.patchedAssets]));
}
