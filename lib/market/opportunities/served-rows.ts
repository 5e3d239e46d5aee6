import { AppError } from "@/lib/errors";
import type { Sliced } from "@/lib/time-slices";
import type { Opportunity } from "../model/types";
import { itemBuilder, idReader, NumberColumn, type ColumnName, type OpportunityColumns } from "./encoding/columns";
import type { EntryFields } from "./set-entries";

// A served set of 46 venues × 600 assets has ~450,000 pairs. Held as item objects (an object, a
// nested one and an id each) they were most of what the serving thread's garbage collector marked,
// and building them after every round most of what it allocated: the freshness benchmark's tail.
// So a served set holds the columns it was published in, and an item is a number saying where it
// is; items are built only for what an answer serves.

/** Rows a column set of a served set may have: an entry is its set's place × MAX_ROWS + its row. */
const MAX_ROWS = 2 ** 24;

/** A number column's name (the sort keys' columns). */
export type NumberColumnName = { [N in Exclude<ColumnName, "id">]: OpportunityColumns[N] extends NumberColumn ? N : never }[Exclude<ColumnName, "id">];

interface Source {
  columns: OpportunityColumns;
  /** Each leg position's exchange. */
  exchangeAt: readonly string[];
  id: (row: number) => string;
  build: ((row: number) => Opportunity) | undefined;
}

/**
 * The column sets a served set's entries are rows of: a round's set, and each micro-batch's pairs
 * spliced into it since. Shared by every set spliced from one another (OpportunitySnapshot.spliced),
 * which only ever adds column sets, so an entry means the same row in all of them. The columns must
 * not change while a set reads them.
 */
export class ServedRows implements EntryFields<number> {
  private readonly sources: Source[] = [];

  /** Adds `columns`; answers its place, which `entrySlices` turns into its entries. */
  add(columns: OpportunityColumns): number {
    if (columns.count > MAX_ROWS) throw new AppError("INTERNAL_ERROR", `a served set's columns hold at most ${MAX_ROWS} rows, not ${columns.count}`);
    this.sources.push({ columns, exchangeAt: columns.legs.map((leg) => leg.exchange), id: idReader(columns), build: undefined });
    return this.sources.length - 1;
  }

  readonly apr = (entry: number): number => {
    const row = entry % MAX_ROWS;
    return this.sources[(entry - row) / MAX_ROWS]!.columns.apr.values[row]!;
  };

  readonly id = (entry: number): string => {
    const row = entry % MAX_ROWS;
    return this.sources[(entry - row) / MAX_ROWS]!.id(row);
  };

  readonly symbol = (entry: number): string => {
    const row = entry % MAX_ROWS;
    const { columns } = this.sources[(entry - row) / MAX_ROWS]!;
    return columns.texts[columns.symbol[row]!]!;
  };

  readonly long = (entry: number): string => {
    const row = entry % MAX_ROWS;
    const source = this.sources[(entry - row) / MAX_ROWS]!;
    return source.exchangeAt[source.columns.long[row]!]!;
  };

  readonly short = (entry: number): string => {
    const row = entry % MAX_ROWS;
    const source = this.sources[(entry - row) / MAX_ROWS]!;
    return source.exchangeAt[source.columns.short[row]!]!;
  };

  /** The value of a number column; null when the entry has none. */
  number(entry: number, name: NumberColumnName): number | null {
    const row = entry % MAX_ROWS;
    return this.sources[(entry - row) / MAX_ROWS]!.columns[name].at(row) ?? null;
  }

  /** The entry's legs, as its item holds them. */
  legs(entry: number): [Opportunity["long"], Opportunity["short"]] {
    const row = entry % MAX_ROWS;
    const { columns } = this.sources[(entry - row) / MAX_ROWS]!;
    return [columns.legs[columns.long[row]!]!, columns.legs[columns.short[row]!]!];
  }

  /** The entry's item, built anew. */
  item(entry: number): Opportunity {
    const row = entry % MAX_ROWS;
    const source = this.sources[(entry - row) / MAX_ROWS]!;
    source.build ??= itemBuilder(source.columns);
    return source.build(row);
  }
}

/** Rows passed between two pause points of `entrySlices`. */
const ROWS_A_SLICE = 16_384;

/** The entries of every row of `columns`, added to a ServedRows at `place`, in its order; of the assets in `except`, none. */
export function* entrySlices(place: number, columns: OpportunityColumns, except?: ReadonlySet<string>): Sliced<number[]> {
  const left = except && except.size > 0 ? columns.texts.map((text) => except.has(text)) : undefined;
  const base = place * MAX_ROWS;
  const entries: number[] = [];
  for (let row = 0; row < columns.count; row++) {
    if (row % ROWS_A_SLICE === ROWS_A_SLICE - 1) yield;
    if (left?.[columns.symbol[row]!]) continue;
    entries.push(base + row);
  }
  return entries;
}
