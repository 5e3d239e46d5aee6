import { runWhole, type Sliced } from "@/lib/time-slices";
import { replacesPair, type PartialAssets } from "./pair-scope";
import { entryBefore, type EntryFields } from "./set-entries";

// Pairs are formed per asset (rank-opportunities.ts), so a micro-batch re-ranks a few assets' pairs
// and leaves the rest of the set as it was. A served set held by asset is patched by replacing those
// assets' groups, in time proportional to the batch, rather than by a pass over its 150,000 items;
// the whole list in set order is merged from the groups only when something reads it.

/** A set's entries by asset (EntryFields.symbol), each asset's in set order (`rankedBefore`). Never written once made. */
export type OpportunityGroups<T> = ReadonlyMap<string, readonly T[]>;

/** `ordered`'s entries by asset, each group in `ordered`'s order. Pure. */
export function groupsOf<T>(fields: EntryFields<T>, ordered: readonly T[]): Map<string, readonly T[]> {
  return runWhole(groupSlices(fields, ordered));
}

/** Items a slice of `groupSlices`. */
const GROUPED_A_SLICE = 8_192;

/** `groupsOf` pausing every GROUPED_A_SLICE items (lib/time-slices.ts): a round's 400,000 items took most of a second at once. */
export function* groupSlices<T>(fields: EntryFields<T>, ordered: readonly T[]): Sliced<Map<string, readonly T[]>> {
  const groups = new Map<string, T[]>();
  for (let i = 0; i < ordered.length; i++) {
    if (i % GROUPED_A_SLICE === GROUPED_A_SLICE - 1) yield;
    const entry = ordered[i]!;
    const symbol = fields.symbol(entry);
    const group = groups.get(symbol);
    if (group) group.push(entry);
    else groups.set(symbol, [entry]);
  }
  return groups;
}

/**
 * `groups` with every item of `bases` replaced by `replacement` (those assets re-ranked, in set
 * order; of an asset in `partial`, only its items with a leg on one of its venues there): an asset
 * of `bases` without a replacement item is gone, a new one is added. The other groups are the same
 * arrays. Pure; costs the map's copy (one entry per asset) and the batch.
 */
export function spliceGroups<T>(
  fields: EntryFields<T>,
  groups: OpportunityGroups<T>,
  bases: ReadonlySet<string>,
  replacement: readonly T[],
  partial?: PartialAssets,
): Map<string, readonly T[]> {
  const next = new Map(groups);
  for (const base of bases) {
    const group = next.get(base);
    if (!group) continue;
    if (partial?.has(base)) {
      const kept = keptEntries(group, bases, partial, fields);
      if (kept.length > 0) next.set(base, kept);
      else next.delete(base);
    } else next.delete(base);
  }
  for (const [symbol, group] of groupsOf(fields, replacement)) {
    // An item of an asset outside `bases` joins that asset's kept items, as a splice of the whole list would merge it.
    const kept = next.get(symbol);
    next.set(symbol, kept ? mergeTwo(kept, group, fields) : group);
  }
  return next;
}

/** The entries of `group` a batch of `bases` and `partial` leaves as they are, in order. */
function keptEntries<T>(group: readonly T[], bases: ReadonlySet<string>, partial: PartialAssets | undefined, f: EntryFields<T>): T[] {
  return group.filter((entry) => !replacesPair(bases, partial, f.symbol(entry), f.long(entry), f.short(entry)));
}

function mergeTwo<T>(a: readonly T[], b: readonly T[], f: EntryFields<T>): T[] {
  const out = new Array<T>(a.length + b.length);
  let [i, j] = [0, 0];
  for (let r = 0; r < out.length; r++) {
    const fromA = j >= b.length || (i < a.length && entryBefore(f, a[i]!, b[j]!));
    out[r] = fromA ? a[i++]! : b[j++]!;
  }
  return out;
}

/** Every entry of `groups` in set order: a k-way merge, a heap of the groups by their next entry. Pure. */
export function mergeGroups<T>(f: EntryFields<T>, groups: OpportunityGroups<T>): T[] {
  const lists: (readonly T[])[] = [];
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
    return entryBefore(f, a, b);
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
  const out = new Array<T>(count);
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
