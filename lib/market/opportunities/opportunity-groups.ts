import { runWhole, type Sliced } from "@/lib/time-slices";
import type { Opportunity } from "../model/types";
import { replacesPair, type PartialAssets } from "./pair-scope";
import { rankedBefore } from "./splice-opportunities";

// Pairs are formed per asset (rank-opportunities.ts), so a micro-batch re-ranks a few assets' pairs
// and leaves the rest of the set as it was. A served set held by asset is patched by replacing those
// assets' groups, in time proportional to the batch, rather than by a pass over its 150,000 items;
// the whole list in set order is merged from the groups only when something reads it.

/** A set's items by asset (`Opportunity.symbol`), each asset's in set order (`rankedBefore`). Never written once made. */
export type OpportunityGroups = ReadonlyMap<string, readonly Opportunity[]>;

/** `ordered`'s items by asset, each group in `ordered`'s order. Pure. */
export function groupsOf(ordered: readonly Opportunity[]): Map<string, readonly Opportunity[]> {
  return runWhole(groupSlices(ordered));
}

/** Items a slice of `groupSlices`. */
const GROUPED_A_SLICE = 8_192;

/** `groupsOf` pausing every GROUPED_A_SLICE items (lib/time-slices.ts): a round's 400,000 items took most of a second at once. */
export function* groupSlices(ordered: readonly Opportunity[]): Sliced<Map<string, readonly Opportunity[]>> {
  const groups = new Map<string, Opportunity[]>();
  for (let i = 0; i < ordered.length; i++) {
    if (i % GROUPED_A_SLICE === GROUPED_A_SLICE - 1) yield;
    const item = ordered[i]!;
    const group = groups.get(item.symbol);
    if (group) group.push(item);
    else groups.set(item.symbol, [item]);
  }
  return groups;
}

/**
 * `groups` with every item of `bases` replaced by `replacement` (those assets re-ranked, in set
 * order; of an asset in `partial`, only its items with a leg on one of its venues there): an asset
 * of `bases` without a replacement item is gone, a new one is added. The other groups are the same
 * arrays. Pure; costs the map's copy (one entry per asset) and the batch.
 */
export function spliceGroups(
  groups: OpportunityGroups,
  bases: ReadonlySet<string>,
  replacement: readonly Opportunity[],
  partial?: PartialAssets,
): Map<string, readonly Opportunity[]> {
  const next = new Map(groups);
  for (const base of bases) {
    const group = next.get(base);
    if (!group) continue;
    if (partial?.has(base)) {
      const kept = keptItems(group, bases, partial);
      if (kept.length > 0) next.set(base, kept);
      else next.delete(base);
    } else next.delete(base);
  }
  for (const [symbol, group] of groupsOf(replacement)) {
    // An item of an asset outside `bases` joins that asset's kept items, as a splice of the whole list would merge it.
    const kept = next.get(symbol);
    next.set(symbol, kept ? mergeTwo(kept, group) : group);
  }
  return next;
}

/** The items of `group` a batch of `bases` and `partial` leaves as they are, in order. */
function keptItems(group: readonly Opportunity[], bases: ReadonlySet<string>, partial: PartialAssets | undefined): Opportunity[] {
  return group.filter((item) => !replacesPair(bases, partial, item.symbol, item.long.exchange, item.short.exchange));
}

function mergeTwo(a: readonly Opportunity[], b: readonly Opportunity[]): Opportunity[] {
  const out = new Array<Opportunity>(a.length + b.length);
  let [i, j] = [0, 0];
  for (let r = 0; r < out.length; r++) {
    const fromA = j >= b.length || (i < a.length && rankedBefore(a[i]!.apr, a[i]!.id, b[j]!.apr, b[j]!.id));
    out[r] = fromA ? a[i++]! : b[j++]!;
  }
  return out;
}

/** Every item of `groups` in set order: a k-way merge, a heap of the groups by their next item. Pure. */
export function mergeGroups(groups: OpportunityGroups): Opportunity[] {
  const lists: (readonly Opportunity[])[] = [];
  let count = 0;
  for (const group of groups.values()) {
    if (group.length === 0) continue;
    lists.push(group);
    count += group.length;
  }
  const next = new Uint32Array(lists.length); // each list's next item
  const heap = lists.map((_, i) => i);
  let size = heap.length;
  const before = (x: number, y: number) => {
    const a = lists[x]![next[x]!]!;
    const b = lists[y]![next[y]!]!;
    return rankedBefore(a.apr, a.id, b.apr, b.id);
  };
  const siftDown = (from: number) => {
    const top = heap[from]!;
    let at = from;
    for (;;) {
      let child = 2 * at + 1;
      if (child >= size) break;
      if (child + 1 < size && before(heap[child + 1]!, heap[child]!)) child += 1;
      if (!before(heap[child]!, top)) break;
      heap[at] = heap[child]!;
      at = child;
    }
    heap[at] = top;
  };
  for (let i = (size >> 1) - 1; i >= 0; i--) siftDown(i);
  const out = new Array<Opportunity>(count);
  for (let r = 0; r < count; r++) {
    const list = heap[0]!;
    const at = next[list]!;
    out[r] = lists[list]![at]!;
    next[list] = at + 1;
    if (at + 1 === lists[list]!.length) heap[0] = heap[--size]!;
    if (size > 0) siftDown(0);
  }
  return out;
}
