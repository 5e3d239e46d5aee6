import { runInSlices, runWhole, type Sliced } from "@/lib/time-slices";
import type { OpportunityLeg } from "../model/types";
import { ABSENT_POSITION, emptyColumnArrays, idReader, NumberColumn, ValueList, type OpportunityColumns } from "./encoding/columns";
import { hasLegOn, type PairScope, type PartialAssets } from "./pair-scope";
import { COPIED_COLUMNS, rowCopier } from "./splice-opportunities";

// A micro-batch re-ranks ~100 assets of 1,800; building the whole 150,000-pair set after each one
// (spliceColumns) and scanning it twice for the events cost the serving thread far more than the
// batch itself. Pairs are formed per asset, so the set is held as the last round's columns plus,
// per asset a batch re-ranked since, that asset's latest pairs in the batch's columns: a batch
// costs its own width, and the whole set is gathered once, when a round compares with it. A batch
// that re-ranked an asset in part (pair-scope.ts) leaves its other pairs where they were, so an
// asset's pairs are runs of rows of several columns.

/** Some rows of one set's columns, in set order (ascending). */
interface Rows {
  columns: OpportunityColumns;
  rows: Uint32Array;
}

/** Some rows of one set's columns, in any order; `rows` null: all of them, in set order. What a diff reads the pairs of a set from (lib/events/derive-events.ts). */
export interface PairRows {
  columns: OpportunityColumns;
  rows: Uint32Array | null;
}

/** An asset's pairs since a batch re-ranked it: runs of rows, each in set order, in no order between them. */
type Layer = readonly Rows[];

const NO_ROWS = new Uint32Array(0);

/** Rows copied one by one between two of the merge's pause points. */
const SLICE_ROWS = 4_096;

/** The round's set's rows by asset, indexed on first need and shared by every set patched from it. */
class RoundRows {
  private byBase: Map<string, Uint32Array> | undefined;

  constructor(readonly set: OpportunityColumns) {}

  of(base: string): Uint32Array {
    return (this.byBase ??= rowsByBase(this.set)).get(base) ?? NO_ROWS;
  }
}

/**
 * An opportunity set as a round's columns with some assets' pairs replaced by later micro-batches'.
 * Immutable: `patched` answers a new set; the columns it reads are never written (a set's memory is
 * given back only once no set reads it: see the publisher). Sets patched from one round share its
 * index of rows by asset.
 */
export class PatchedSet {
  private constructor(
    private readonly round: RoundRows,
    /** Each asset re-ranked since the round, in whole or in part: its pairs now (none when it has gone). */
    private readonly patches: ReadonlyMap<string, Layer>,
    /** The keys of the latest columns with items, as spliceColumns keeps them. */
    private readonly keys: readonly string[],
  ) {}

  /** A round's set, unpatched. */
  static of(set: OpportunityColumns): PatchedSet {
    return new PatchedSet(new RoundRows(set), new Map(), set.keys);
  }

  /**
   * `set` (a new round's) with the pairs in `scope` as `from` has them from its batches: an asset's
   * layer is carried over, not copied, so this costs the number of assets and a pass over `set`
   * (its rows by asset); of an asset in `scope.partial`, only its pairs with a leg on one of the
   * venues there, the others the new round's, as a reader applying those batches' patches to `set`
   * has them (store.ts). An asset `from` has no batch's pairs for keeps the round's. The answer
   * never reads `from`'s round columns, whose memory a later round takes (ColumnSlabs): rows of
   * them are copied. For a scope the publisher gives (`patchedSince`) there are none (a batch that
   * re-ranked an asset, in whole or in part, left no row of them on its venues), but a set that
   * read memory in use elsewhere would serve garbage, and checking costs a comparison a run.
   */
  static carrying(set: OpportunityColumns, from: PatchedSet, scope: PairScope): PatchedSet {
    const round = new RoundRows(set);
    const patches = new Map<string, Layer>();
    const own = (run: Rows) => (run.columns === from.round.set ? copied(run) : run);
    for (const asset of scope.bases) {
      const layer = from.patches.get(asset);
      if (!layer) continue;
      const venues = scope.partial.get(asset);
      if (!venues) patches.set(asset, layer.map(own));
      else {
        const carried = layer.map((run) => legsOn(run, venues, true)).filter((run) => run.rows.length > 0);
        patches.set(asset, [legsOn({ columns: set, rows: round.of(asset) }, venues, false), ...carried.map(own)]);
      }
    }
    return new PatchedSet(round, patches, set.keys);
  }

  /** The assets whose pairs a batch's columns hold rather than the round's. */
  get patchedAssets(): ReadonlySet<string> {
    return new Set(this.patches.keys());
  }

  /** The round's columns under the patches: the memory this set and every set patched from it read. */
  get roundSet(): OpportunityColumns {
    return this.round.set;
  }

  /**
   * This set with every pair of `bases` replaced by `items` (those assets re-ranked: its items are
   * all of their pairs, in set order; of an asset in `partial`, its pairs with a leg on one of its
   * venues there). In time proportional to the batch, not to the set; `items` is read from then
   * on, so it may not be written or given back while the new set is read.
   */
  patched(bases: ReadonlySet<string>, items: OpportunityColumns, partial?: PartialAssets): PatchedSet {
    const ofItems = rowsByBase(items);
    const patches = new Map(this.patches);
    for (const base of bases) {
      const fresh = { columns: items, rows: ofItems.get(base) ?? NO_ROWS };
      const venues = partial?.get(base);
      const kept = venues ? this.runsOf(base).map((run) => legsOn(run, venues, false)).filter((run) => run.rows.length > 0) : [];
      patches.set(base, [...kept, fresh]);
    }
    return new PatchedSet(this.round, patches, items.count > 0 ? items.keys : this.keys);
  }

  /**
   * The current pairs of `bases` (of an asset in `partial`, those with a leg on one of its venues
   * there) as one set, in set order: in new memory unless they are all of one columns' items.
   */
  rowsOf(bases: Iterable<string>, partial?: PartialAssets): OpportunityColumns {
    return runWhole(this.rowSlices(bases, partial, "relisted"));
  }

  /**
   * Every current pair of `bases` as `rowsOf` gives them, giving the event loop a turn every
   * `sliceMs` (lib/time-slices.ts): after a round, the pairs of the assets it carried from batches
   * (tens of thousands to 150,000), which this process's served set builds items of. Their lists
   * are the sources' appended (`inSetOrder`): items look entries up by position, so the entries
   * no row uses cost nothing, and no cell is looked up in a list.
   */
  rowsOfInSlices(bases: Iterable<string>, sliceMs?: number): Promise<OpportunityColumns> {
    return runInSlices(this.rowSlices(bases, undefined, "appended"), sliceMs);
  }

  private *rowSlices(bases: Iterable<string>, partial: PartialAssets | undefined, lists: "relisted" | "appended"): Sliced<OpportunityColumns> {
    const runs: Rows[] = [];
    for (const base of bases) {
      const venues = partial?.get(base);
      for (const run of this.runsOf(base)) runs.push(venues ? legsOn(run, venues, true) : run);
    }
    return yield* inSetOrder(runs, this.keys, lists);
  }

  private runsOf(base: string): Layer {
    return this.patches.get(base) ?? [{ columns: this.round.set, rows: this.round.of(base) }];
  }

  /**
   * Every current pair as runs of rows of the columns they lie in, in no particular order (the
   * round's rows that stand, then each patched asset's), giving the event loop a turn every
   * `sliceMs`: what a round's event diff compares with, reading them where they lie. Copying
   * 420,000 pairs into one set first was most of the diff's work on the thread that serves.
   */
  async runsInSlices(sliceMs?: number): Promise<PairRows[]> {
    if (this.patches.size === 0) return [{ columns: this.round.set, rows: null }];
    return runInSlices(this.currentRuns(), sliceMs);
  }

  /** The round's rows of the assets no batch re-ranked, then every patched asset's runs. */
  private *currentRuns(): Sliced<Rows[]> {
    const round = this.round.set;
    const patchedText = round.texts.map((text) => this.patches.has(text));
    const kept = new Uint32Array(round.count);
    let count = 0;
    for (let i = 0; i < round.count; i++) if (!patchedText[round.symbol[i]!]) kept[count++] = i;
    yield;
    return [{ columns: round, rows: kept.subarray(0, count) }, ...[...this.patches.values()].flat()];
  }
}

/** The rows of `run` with (`on`) or without a leg on one of `venues`. */
function legsOn({ columns, rows }: Rows, venues: ReadonlySet<string>, on: boolean): Rows {
  const { legs, long, short } = columns;
  const out = new Uint32Array(rows.length);
  let n = 0;
  for (const row of rows) if (hasLegOn(venues, legs[long[row]!]!.exchange, legs[short[row]!]!.exchange) === on) out[n++] = row;
  return { columns, rows: out.subarray(0, n) };
}

/** `run`'s rows in columns of their own. */
function copied({ columns, rows }: Rows): Rows {
  const count = rows.length;
  const out = emptyColumnArrays(count);
  const [legs, texts] = [new ValueList<OpportunityLeg>(), new ValueList<string>()];
  const copy = rowCopier(columns, out, legs, texts);
  rows.forEach((row, r) => copy(row, r));
  const idOf = idReader(columns);
  const ids = columns.ids ? Array.from(rows, (row) => idOf(row)) : null;
  const own = { ...out, count, keys: columns.keys, ids, legs: legs.list, texts: texts.list };
  return { columns: own, rows: Uint32Array.from({ length: count }, (_, r) => r) };
}

/**
 * Each asset's rows in `set`, ascending. One pass over the set. Only the positions its symbols take
 * are looked at by text: a round's texts are mostly its pairs' times, and in a freshness profile a
 * callback per text (a lookup or two each) took about a tenth of a second of every round's hold.
 */
function rowsByBase(set: OpportunityColumns): Map<string, Uint32Array> {
  const counts = new Uint32Array(set.texts.length);
  for (let i = 0; i < set.count; i++) counts[set.symbol[i]!]! += 1;
  const sizes = new Map<string, number>();
  for (let at = 0; at < counts.length; at++) {
    if (counts[at]! > 0) sizes.set(set.texts[at]!, (sizes.get(set.texts[at]!) ?? 0) + counts[at]!);
  }
  // A text listed twice (a spliced set's lists) fills one array: both positions share a cursor.
  // The arrays are views of one buffer: a buffer per asset, in a round's hold, had V8 advance its
  // marking in many of the 600 allocations (see emptyColumnArrays), half a second in one run.
  const all = new Uint32Array(set.count);
  const filling = new Map<string, { rows: Uint32Array; next: number }>();
  let start = 0;
  for (const [text, size] of sizes) {
    filling.set(text, { rows: all.subarray(start, start + size), next: 0 });
    start += size;
  }
  const atPosition = new Array<{ rows: Uint32Array; next: number } | undefined>(set.texts.length);
  for (let at = 0; at < counts.length; at++) if (counts[at]! > 0) atPosition[at] = filling.get(set.texts[at]!);
  for (let i = 0; i < set.count; i++) {
    const target = atPosition[set.symbol[i]!]!;
    target.rows[target.next++] = i;
  }
  return new Map([...filling].map(([text, { rows }]) => [text, rows]));
}

/**
 * The rows of `runs` as one set in set order (highest APR first, ties by id in code-unit order:
 * splice-opportunities.ts `rankedBefore`). The rows of one columns are in set order already, so
 * those are sorted by position and only the columns' sequences are merged, pairwise. All of one
 * columns' items are answered as that columns, sets never being written once made.
 *
 * `relisted`: row by row, the new set's lists holding only the legs and texts it uses (some
 * assets' pairs, whose lists the events index entry by entry). `appended`: the lists are the
 * sources' one after another and the rows are copied a column at a time, positions moved by
 * their source's offset, with no lookup per cell (many rows of which only items are built).
 */
function* inSetOrder(runs: readonly Rows[], keys: readonly string[], lists: "relisted" | "appended"): Sliced<OpportunityColumns> {
  const { sources, sequences } = bySource(runs);
  if (isWhole(sources, sequences)) return sources[0]!;
  const merged = yield* mergeSequences(sources, sequences);
  if (lists === "appended") return yield* appended(sources, merged, keys);
  const count = merged.rows.length;
  const out = emptyColumnArrays(count);
  const legs = new ValueList<OpportunityLeg>();
  const texts = new ValueList<string>();
  const copiers = sources.map((columns) => rowCopier(columns, out, legs, texts));
  const idsOf = sources.map((columns) => idReader(columns));
  const ids = sources.some((columns) => columns.ids) ? new Array<string>(count) : null;
  for (let r = 0; r < count; r++) {
    if (r % SLICE_ROWS === SLICE_ROWS - 1) yield;
    const [source, row] = [merged.sources[r]!, merged.rows[r]!];
    copiers[source]!(row, r);
    if (ids) ids[r] = idsOf[source]!(row);
  }
  return { ...out, count, keys, ids, legs: legs.list, texts: texts.list };
}

/** `merged` copied column by column, the sources' lists one after another. */
function* appended(sources: readonly OpportunityColumns[], merged: Sequence, keys: readonly string[]): Sliced<OpportunityColumns> {
  const count = merged.rows.length;
  const out = emptyColumnArrays(count);
  const [legs, texts] = [[] as OpportunityLeg[], [] as string[]];
  const offsets = sources.map((columns) => {
    const at = { leg: legs.length, text: texts.length };
    for (const leg of columns.legs) legs.push(leg);
    for (const text of columns.texts) texts.push(text);
    return at;
  });
  const { sources: from, rows } = merged;
  for (const { name, kind } of COPIED_COLUMNS) {
    yield;
    const target = out[name];
    if (target instanceof NumberColumn) {
      const values = sources.map((columns) => (columns[name] as NumberColumn).values);
      const states = sources.map((columns) => (columns[name] as NumberColumn).states);
      for (let r = 0; r < count; r++) {
        target.values[r] = values[from[r]!]![rows[r]!]!;
        target.states[r] = states[from[r]!]![rows[r]!]!;
      }
      continue;
    }
    const positions = sources.map((columns) => columns[name] as Uint32Array);
    const moved = offsets.map((at) => (kind === "leg" ? at.leg : at.text));
    const into = target as Uint32Array;
    for (let r = 0; r < count; r++) {
      const position = positions[from[r]!]![rows[r]!]!;
      // Absent and null (the two highest positions) stay as they are.
      into[r] = position >= ABSENT_POSITION ? position : position + moved[from[r]!]!;
    }
  }
  const idsOf = sources.map((columns) => idReader(columns));
  const ids = sources.some((columns) => columns.ids) ? new Array<string>(count) : null;
  if (ids)
    for (let r = 0; r < count; r++) {
      if (r % SLICE_ROWS === SLICE_ROWS - 1) yield;
      ids[r] = idsOf[from[r]!]!(rows[r]!);
    }
  return { ...out, count, keys, ids, legs, texts };
}

/** The rows of `runs` by the columns they are of, each columns' rows in set order (ascending). */
function bySource(runs: readonly Rows[]): { sources: OpportunityColumns[]; sequences: Sequence[] } {
  const held = new Map<OpportunityColumns, Uint32Array[]>();
  for (const { columns, rows } of runs) {
    if (rows.length === 0) continue;
    const parts = held.get(columns);
    if (parts) parts.push(rows);
    else held.set(columns, [rows]);
  }
  const sequences = [...held.values()].map((parts, source) => {
    const rows = parts.length === 1 ? parts[0]! : concatenated(parts).sort();
    return { sources: new Uint32Array(rows.length).fill(source), rows };
  });
  return { sources: [...held.keys()], sequences };
}

/** All of one columns' items: answered as that columns, sets never being written once made. */
function isWhole(sources: readonly OpportunityColumns[], sequences: readonly Sequence[]): boolean {
  return sources.length === 1 && sequences[0]!.rows.length === sources[0]!.count;
}

function concatenated(parts: readonly Uint32Array[]): Uint32Array {
  const out = new Uint32Array(parts.reduce((n, part) => n + part.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

/** Rows of several columns (`sources[i]` for each), in set order. */
interface Sequence {
  sources: Uint32Array;
  rows: Uint32Array;
}

/** The sequences, each in set order, merged into one: pairwise, so k sequences of n rows in all cost n·log k. */
function* mergeSequences(sources: readonly OpportunityColumns[], sequences: Sequence[]): Sliced<Sequence> {
  const apr = sources.map((columns) => columns.apr.values);
  const id = sources.map((columns) => idReader(columns));
  // rankedBefore, the ids built only for a tie.
  const before = (sa: number, ra: number, sb: number, rb: number) => {
    const [a, b] = [apr[sa]![ra]!, apr[sb]![rb]!];
    return a !== b ? a > b : id[sa]!(ra) < id[sb]!(rb);
  };
  let level = sequences;
  while (level.length > 1) {
    const next: Sequence[] = [];
    for (let k = 0; k < level.length; k += 2) {
      next.push(k + 1 < level.length ? yield* mergeTwo(level[k]!, level[k + 1]!, before) : level[k]!);
      yield;
    }
    level = next;
  }
  return level[0] ?? { sources: NO_ROWS, rows: NO_ROWS };
}

/** Two sequences merged, pausing every SLICE_ROWS rows: the last merge of a whole set is all of its rows. */
function* mergeTwo(x: Sequence, y: Sequence, before: (sa: number, ra: number, sb: number, rb: number) => boolean): Sliced<Sequence> {
  const count = x.rows.length + y.rows.length;
  const out = { sources: new Uint32Array(count), rows: new Uint32Array(count) };
  let [a, b] = [0, 0];
  for (let r = 0; r < count; r++) {
    if (r % SLICE_ROWS === SLICE_ROWS - 1) yield;
    const fromX = b >= y.rows.length || (a < x.rows.length && before(x.sources[a]!, x.rows[a]!, y.sources[b]!, y.rows[b]!));
    if (fromX) {
      out.sources[r] = x.sources[a]!;
      out.rows[r] = x.rows[a++]!;
    } else {
      out.sources[r] = y.sources[b]!;
      out.rows[r] = y.rows[b++]!;
    }
  }
  return out;
}
