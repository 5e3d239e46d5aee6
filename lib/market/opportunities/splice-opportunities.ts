import { AppError } from "@/lib/errors";
import { runWhole, type Sliced } from "@/lib/time-slices";
import type { OpportunityLeg } from "../model/types";
import { ABSENT_POSITION, COLUMNS, emptyColumnArrays, FIELD_KINDS, idReader, NULL_POSITION, NumberColumn, ValueList, type OpportunityColumns } from "./encoding/columns";
import { replacedRows, replacesPair, type PartialAssets } from "./pair-scope";
import { entryBefore, type EntryFields } from "./set-entries";

// Pairs are formed per asset (rank-opportunities.ts), so re-ranking some assets' markets changes
// only those assets' pairs: the rest of the live set stands, already in order. A set read back with
// its micro-batches' patches, and a round catching up on what batches published while it ranked,
// splice the re-ranked assets' pairs in here, one merge of two ordered lists, rather than ranking
// 150,000 pairs again. The publisher itself holds its batches as layers (patched-set.ts).

/** The set's order: highest APR first, ties by id in code-unit order, as rankOpportunities sorts. */
export function rankedBefore(aprA: number, idA: string, aprB: number, idB: string): boolean {
  return aprA !== aprB ? aprA > aprB : idA < idB;
}

/**
 * `live` with every pair of `bases` replaced by `replacement` (those assets re-ranked: its items
 * are all of them, in set order; of an asset in `partial`, only its pairs with a leg on one of its
 * venues there): the kept items and the new ones merged in set order, in new memory. Equals ranking the whole merged market afresh when `replacement` was ranked with the
 * same history. Pure. When every item of `live` is replaced, the answer is `replacement` itself.
 *
 * The new set's leg and text lists are `live`'s followed by `replacement`'s, so the kept items'
 * positions stand and each run of them between two new items is copied array by array, not cell by
 * cell: at 150,000 items a splice costs a copy of the columns, not 150,000 items' work. The lists
 * keep the replaced items' entries, so after many splices in a row they are listed afresh.
 */
export function spliceColumns(
  live: OpportunityColumns,
  bases: ReadonlySet<string>,
  replacement: OpportunityColumns,
  partial?: PartialAssets,
  /** Listed legs and texts beyond which they are listed afresh; tests lower it. */
  listLimit?: number,
): OpportunityColumns {
  return runWhole(spliceColumnSlices(live, bases, replacement, partial, listLimit));
}

/** Rows of the live set passed between two of the splice's pause points. */
const SLICE_ROWS = 8_192;

/**
 * `spliceColumns` as sliced work (lib/time-slices.ts): a round catching up on the batches splices
 * into its whole new set, 400,000 rows at 46 venues, which at once held the serving thread for up
 * to a second.
 */
export function* spliceColumnSlices(
  live: OpportunityColumns,
  bases: ReadonlySet<string>,
  replacement: OpportunityColumns,
  partial?: PartialAssets,
  listLimit?: number,
): Sliced<OpportunityColumns> {
  const replaced = replacedRows(live, bases, partial);
  const keptFlags = new Uint8Array(live.count);
  let kept = 0;
  for (let i = 0; i < live.count; i++) {
    if (i % SLICE_ROWS === SLICE_ROWS - 1) yield;
    if (replaced(i)) continue;
    keptFlags[i] = 1;
    kept += 1;
  }
  // Every asset of the set re-ranked (a batch as wide as a round, or a set of only those assets):
  // the replacement is the new set as it is. Sets are never written once made, so it is shared.
  if (kept === 0) return replacement;
  const isKept = (i: number) => keptFlags[i] === 1;
  const count = kept + replacement.count;
  const listed = live.legs.length + replacement.legs.length + live.texts.length + replacement.texts.length;
  if (listed > (listLimit ?? 4 * count + 10_000)) return yield* relisted(live, isKept, kept, replacement);

  const out = emptyColumnArrays(count);
  const [liveId, newId] = [idReader(live), idReader(replacement)];
  const ids = live.ids || replacement.ids ? new Array<string>(count) : null;
  const columns = columnPairs(live, replacement, out);
  const [legOffset, textOffset] = [live.legs.length, live.texts.length];
  const liveApr = live.apr.values;
  const newApr = replacement.apr.values;
  let i = 0; // the next live item
  let r = 0; // the next row written
  let pauseAt = SLICE_ROWS; // the live item after which the splice next pauses
  const copyRun = (from: number, to: number) => {
    if (to <= from) return;
    for (const { live: source, target } of columns) {
      if (source instanceof NumberColumn) {
        const t = target as NumberColumn;
        t.values.set(source.values.subarray(from, to), r);
        t.states.set(source.states.subarray(from, to), r);
      } else (target as Uint32Array).set(source.subarray(from, to), r);
    }
    if (ids) for (let k = from; k < to; k++) ids[r + k - from] = liveId(k);
    r += to - from;
  };
  for (let b = 0; b <= replacement.count; b++) {
    if (b % SLICE_ROWS === SLICE_ROWS - 1) yield;
    // The kept live items that come before new item `b` (all that are left, after the last).
    let runStart = i;
    const newAt = b < replacement.count ? newApr[b]! : Number.NaN;
    while (i < live.count) {
      if (i >= pauseAt) {
        // The kept run so far is copied first: the run's start is a row of this slice.
        copyRun(runStart, i);
        runStart = i;
        pauseAt = i + SLICE_ROWS;
        yield;
      }
      if (keptFlags[i] === 0) {
        copyRun(runStart, i);
        runStart = ++i;
        continue;
      }
      if (b < replacement.count) {
        const liveAt = liveApr[i]!;
        if (liveAt < newAt || (liveAt === newAt && liveId(i) > newId(b))) break;
      }
      i += 1;
    }
    copyRun(runStart, i);
    if (b === replacement.count) break;
    for (const { fresh, target, kind } of columns) {
      if (fresh instanceof NumberColumn) {
        const t = target as NumberColumn;
        t.states[r] = fresh.states[b]!;
        t.values[r] = fresh.values[b]!;
      } else {
        const position = fresh[b]!;
        (target as Uint32Array)[r] = position === NULL_POSITION || position === ABSENT_POSITION ? position : position + (kind === "leg" ? legOffset : textOffset);
      }
    }
    if (ids) ids[r] = newId(b);
    r += 1;
  }
  return {
    ...out,
    count,
    keys: replacement.count > 0 || live.count === 0 ? replacement.keys : live.keys,
    ids,
    legs: [...live.legs, ...replacement.legs],
    texts: [...live.texts, ...replacement.texts],
  };
}

/** Whether an item of APR `aprA` goes before one of `aprB`, the ids built only for a tie. */
function before(aprA: number, idA: () => string, aprB: number, idB: () => string): boolean {
  return aprA !== aprB ? aprA > aprB : idA() < idB();
}

/** Every column but the id (the ones copied from set to set), with its kind. */
export const COPIED_COLUMNS = COLUMNS.filter((c) => c.name !== "id").map((c) => {
  const name = c.name as Exclude<typeof c.name, "id">;
  return { name, kind: name in FIELD_KINDS ? FIELD_KINDS[name as keyof typeof FIELD_KINDS] : c.kind };
});

/** Every column but the id, of both sets and the new one, with its kind. */
function columnPairs(live: OpportunityColumns, replacement: OpportunityColumns, out: ReturnType<typeof emptyColumnArrays>) {
  return COPIED_COLUMNS.map(({ name, kind }) => ({ live: live[name], fresh: replacement[name], target: out[name], kind }));
}

/** `spliceColumns` item by item into lists of only the values the new set uses: the lists' compaction. */
function* relisted(live: OpportunityColumns, isKept: (i: number) => boolean, kept: number, replacement: OpportunityColumns): Sliced<OpportunityColumns> {
  const keptRows = new Uint32Array(kept);
  for (let i = 0, k = 0; i < live.count; i++) if (isKept(i)) keptRows[k++] = i;
  const [liveId, newId] = [idReader(live), idReader(replacement)];
  const count = kept + replacement.count;
  const out = emptyColumnArrays(count);
  const legs = new ValueList<OpportunityLeg>();
  const texts = new ValueList<string>();
  const ids = live.ids || replacement.ids ? new Array<string>(count) : null;
  const copyLive = rowCopier(live, out, legs, texts);
  const copyNew = rowCopier(replacement, out, legs, texts);
  let [a, b] = [0, 0];
  for (let r = 0; r < count; r++) {
    if (r % SLICE_ROWS === SLICE_ROWS - 1) yield;
    const fromLive =
      b >= replacement.count ||
      (a < kept && before(live.apr.values[keptRows[a]!]!, () => liveId(keptRows[a]!), replacement.apr.values[b]!, () => newId(b)));
    if (fromLive) {
      const i = keptRows[a++]!;
      copyLive(i, r);
      if (ids) ids[r] = liveId(i);
    } else {
      copyNew(b, r);
      if (ids) ids[r] = newId(b);
      b += 1;
    }
  }
  return { ...out, count, keys: replacement.count > 0 || live.count === 0 ? replacement.keys : live.keys, ids, legs: legs.list, texts: texts.list };
}

/** Copies a row of `from` into row `r` of `to`, its legs and texts listed again in the new set's lists. */
export function rowCopier(from: OpportunityColumns, to: ReturnType<typeof emptyColumnArrays>, legs: ValueList<OpportunityLeg>, texts: ValueList<string>) {
  const relist = <T extends object | string>(list: readonly T[], into: ValueList<T>) => {
    const moved = new Map<number, number>();
    return (position: number) => {
      if (position === NULL_POSITION || position === ABSENT_POSITION) return position;
      let at = moved.get(position);
      if (at === undefined) moved.set(position, (at = into.at(list[position]!)));
      return at;
    };
  };
  const [leg, text] = [relist(from.legs, legs), relist(from.texts, texts)];
  const columns = COPIED_COLUMNS.map(({ name, kind }) => ({ source: from[name], target: to[name], move: kind === "leg" ? leg : text }));
  return (i: number, r: number) => {
    for (const { source, target, move } of columns) {
      if (source instanceof NumberColumn) {
        const t = target as NumberColumn;
        t.states[r] = source.states[i]!;
        t.values[r] = source.values[i]!;
      } else (target as Uint32Array)[r] = move(source[i]!);
    }
  };
}

/**
 * `spliceColumns`' counterpart for a list of a set's entries (a served set's rows, or items: `f`
 * reads either): every entry of `bases` (of an asset in `partial`, with a leg on one of its venues
 * there) dropped and `replacement` (in set order) merged in. A spliced OpportunitySnapshot builds
 * its whole list so from the list of the set it was spliced from, when that was built: one pass,
 * cheaper than merging its ~2,000 groups. Pure.
 */
export function spliceEntries<T>(
  f: EntryFields<T>,
  live: readonly T[],
  bases: ReadonlySet<string>,
  replacement: readonly T[],
  /** The answer's length, when the caller knows it: the list is made at its size rather than grown. */
  count?: number,
  partial?: PartialAssets,
): T[] {
  return runWhole(spliceEntrySlices(f, live, bases, replacement, count, partial));
}

/** Entries of `live` spliced between two pause points of `spliceEntrySlices`. */
const SPLICED_ENTRIES_A_SLICE = 16_384;

/**
 * `spliceEntries` pausing every SPLICED_ENTRIES_A_SLICE entries of `live`: a round's set of 400,000
 * pairs with the pairs of the assets it carried from batches merged in, on the thread that serves.
 */
export function* spliceEntrySlices<T>(
  f: EntryFields<T>,
  live: readonly T[],
  bases: ReadonlySet<string>,
  replacement: readonly T[],
  count?: number,
  partial?: PartialAssets,
): Sliced<T[]> {
  // One pass over `live`, its dropped items skipped as it goes: no list of the kept ones in between.
  const out: T[] = count === undefined ? [] : new Array<T>(count);
  let r = 0;
  let b = 0;
  let next = replacement[0];
  for (let i = 0; i < live.length; i++) {
    if (i % SPLICED_ENTRIES_A_SLICE === SPLICED_ENTRIES_A_SLICE - 1) yield;
    const item = live[i]!;
    if (bases.size > 0 && replacesPair(bases, partial, f.symbol(item), f.long(item), f.short(item))) continue;
    while (next !== undefined && !entryBefore(f, item, next)) {
      out[r++] = next;
      next = replacement[++b];
    }
    out[r++] = item;
  }
  while (b < replacement.length) out[r++] = replacement[b++]!;
  if (r !== out.length) throw new AppError("INTERNAL_ERROR", `spliced ${r} items into a list of ${out.length}`);
  return out;
}
