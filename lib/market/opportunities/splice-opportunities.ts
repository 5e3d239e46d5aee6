import type { Opportunity, OpportunityLeg } from "../model/types";
import { ABSENT_POSITION, COLUMNS, emptyColumnArrays, FIELD_KINDS, idReader, NULL_POSITION, NumberColumn, ValueList, type OpportunityColumns } from "./encoding/columns";

// Pairs are formed per asset (rank-opportunities.ts), so re-ranking some assets' markets changes
// only those assets' pairs: the rest of the live set stands, already in order. A micro-batch
// re-ranks the assets whose legs changed and splices the result in here, one merge of two ordered
// lists, rather than ranking 150,000 pairs again.

/** The set's order: highest APR first, ties by id in code-unit order, as rankOpportunities sorts. */
export function rankedBefore(aprA: number, idA: string, aprB: number, idB: string): boolean {
  return aprA !== aprB ? aprA > aprB : idA < idB;
}

/**
 * `live` with every pair of `bases` replaced by `replacement` (those assets re-ranked: its items
 * are all of them, in set order): the kept items and the new ones merged in set order, in new
 * memory. Equals ranking the whole merged market afresh when `replacement` was ranked with the
 * same history. Pure.
 */
export function spliceColumns(live: OpportunityColumns, bases: ReadonlySet<string>, replacement: OpportunityColumns): OpportunityColumns {
  const keptRows: number[] = [];
  const replaced = live.texts.map((text) => bases.has(text));
  for (let i = 0; i < live.count; i++) if (!replaced[live.symbol[i]!]) keptRows.push(i);
  const [liveId, newId] = [idReader(live), idReader(replacement)];
  const liveApr = live.apr.values;
  const newApr = replacement.apr.values;
  const count = keptRows.length + replacement.count;
  const out = emptyColumnArrays(count);
  const legs = new ValueList<OpportunityLeg>();
  const texts = new ValueList<string>();
  const ids = live.ids || replacement.ids ? new Array<string>(count) : null;
  const copyLive = rowCopier(live, out, legs, texts);
  const copyNew = rowCopier(replacement, out, legs, texts);
  let [a, b] = [0, 0];
  for (let r = 0; r < count; r++) {
    const fromLive =
      b >= replacement.count ||
      (a < keptRows.length && rankedBefore(liveApr[keptRows[a]!]!, liveId(keptRows[a]!), newApr[b]!, newId(b)));
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

/** The items of `set` whose asset is one of `bases`, in set order, in new memory. Pure. */
export function rowsOfBases(set: OpportunityColumns, bases: ReadonlySet<string>): OpportunityColumns {
  const inBases = set.texts.map((text) => bases.has(text));
  const rows: number[] = [];
  for (let i = 0; i < set.count; i++) if (inBases[set.symbol[i]!]) rows.push(i);
  const out = emptyColumnArrays(rows.length);
  const legs = new ValueList<OpportunityLeg>();
  const texts = new ValueList<string>();
  const copy = rowCopier(set, out, legs, texts);
  rows.forEach((i, r) => copy(i, r));
  return { ...out, count: rows.length, keys: set.keys, ids: set.ids ? rows.map((i) => set.ids![i]!) : null, legs: legs.list, texts: texts.list };
}

/** Copies a row of `from` into row `r` of `to`, its legs and texts listed again in the new set's lists. */
function rowCopier(from: OpportunityColumns, to: ReturnType<typeof emptyColumnArrays>, legs: ValueList<OpportunityLeg>, texts: ValueList<string>) {
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
  const columns = COLUMNS.filter((c) => c.name !== "id").map((c) => {
    const name = c.name as Exclude<typeof c.name, "id">;
    const kind = name in FIELD_KINDS ? FIELD_KINDS[name as keyof typeof FIELD_KINDS] : c.kind;
    return { source: from[name], target: to[name], move: kind === "leg" ? leg : text };
  });
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
 * The served items' counterpart of `spliceColumns`, for a reader holding items rather than columns
 * (LiveOpportunities): every item of `bases` dropped and `replacement` (in set order) merged in.
 * The kept items are the same objects. Pure.
 */
export function spliceItems(live: readonly Opportunity[], bases: ReadonlySet<string>, replacement: readonly Opportunity[]): Opportunity[] {
  const kept = live.filter((o) => !bases.has(o.symbol));
  const out = new Array<Opportunity>(kept.length + replacement.length);
  let [a, b] = [0, 0];
  for (let r = 0; r < out.length; r++) {
    const fromLive = b >= replacement.length || (a < kept.length && rankedBefore(kept[a]!.apr, kept[a]!.id, replacement[b]!.apr, replacement[b]!.id));
    out[r] = fromLive ? kept[a++]! : replacement[b++]!;
  }
  return out;
}
