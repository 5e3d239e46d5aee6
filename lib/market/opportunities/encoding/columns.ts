import type { Opportunity, OpportunityLeg, Persistence } from "../../model/types";
import { roomyBuffer, ScratchArrays, type TakeArray } from "./scratch-arrays";

/**
 * A set of opportunities held in columns: one typed array per field with a value per item, each leg
 * and each distinct text once. What a round ranks into (../rank-opportunities.ts), what
 * the published set stores (set-bytes.ts writes these arrays as they are) and what the
 * change events are diffed on: at 150,000 items, 150,000 objects of 20 fields and a nested one each
 * cost a round more in building and garbage collection than everything they were computed from.
 * `itemReader` / `itemsOf` give the objects the API serves.
 */

/**
 * `key`: a text every item has its own of (the id), kept in item order; `text`: a text few items
 * differ in, each distinct one stored once; `leg`: a position in the leg list; `number`: f64.
 */
export type Kind = "key" | "leg" | "number" | "text";

/** Every item field's kind: TypeScript refuses this table when a field is added and not listed. */
export const FIELD_KINDS = {
  id: "key",
  symbol: "text",
  type: "text",
  long: "leg",
  short: "leg",
  apr: "number",
  net_apr: "number",
  funding_spread_8h: "number",
  price_spread_bps: "number",
  price_spread_unavailable_reason: "text",
  open_interest_usd: "number",
  volume_24h_usd: "number",
  updated_at: "text",
  apr_1d_avg: "number",
  apr_7d_avg: "number",
} as const satisfies { [K in Exclude<keyof Opportunity, "persistence">]-?: Kind };

/** The persistence object's fields, stored as columns `persistence.<field>`. */
export const PERSISTENCE_KINDS = {
  as_of: "text",
  positive_since: "text",
  apr_median_7d: "number",
  apr_median_30d: "number",
  paid_share_7d: "number",
  apr_stddev_7d: "number",
} as const satisfies { [K in keyof Persistence]-?: "number" | "text" };

export type ColumnName = keyof typeof FIELD_KINDS | `persistence.${keyof Persistence}`;

type KindOf<N extends ColumnName> = N extends keyof typeof FIELD_KINDS
  ? (typeof FIELD_KINDS)[N]
  : N extends `persistence.${infer F extends keyof Persistence}`
    ? (typeof PERSISTENCE_KINDS)[F]
    : never;

/** The columns in a fixed order: the item's fields, then the persistence object's. */
export const COLUMNS: readonly { name: ColumnName; kind: Kind }[] = [
  ...Object.entries(FIELD_KINDS).map(([name, kind]) => ({ name: name as ColumnName, kind })),
  ...Object.entries(PERSISTENCE_KINDS).map(([name, kind]) => ({ name: `persistence.${name}` as ColumnName, kind })),
];

/** A number column's value states; a text or leg column stores its absent and null as these positions. */
export const ABSENT = 0;
export const NULL = 1;
export const VALUE = 2;
export const NULL_POSITION = 0xffff_ffff;
export const ABSENT_POSITION = 0xffff_fffe;

/** A number column: the values, and each item's state (absent, null or a value). */
export class NumberColumn {
  constructor(
    readonly values: Float64Array,
    readonly states: Uint8Array,
  ) {}

  static empty(count: number): NumberColumn {
    return new NumberColumn(new Float64Array(count), new Uint8Array(count));
  }

  put(i: number, value: number | null | undefined): void {
    if (value === undefined) this.states[i] = ABSENT;
    else if (value === null) this.states[i] = NULL;
    else if (Number.isFinite(value)) {
      this.states[i] = VALUE;
      this.values[i] = value;
    } else throw new Error(`a number that is not finite cannot be stored: ${value}`);
  }

  /**
   * `put` of a number known to be a number, NaN standing for null: the ranking's row loop writes
   * 450,000 rows a round, where a `number | null` passed on was a new heap number for each. A
   * null's value is written 0, as a new column holds it: a slab's memory holds an older set's.
   */
  putKnown(i: number, value: number): void {
    if (Number.isNaN(value)) {
      this.states[i] = NULL;
      this.values[i] = 0;
    } else if (Number.isFinite(value)) {
      this.states[i] = VALUE;
      this.values[i] = value;
    } else throw new Error(`a number that is not finite cannot be stored: ${value}`);
  }

  /** The value of item `i`, `null`, or undefined when the item has no such field. */
  at(i: number): number | null | undefined {
    const state = this.states[i];
    return state === VALUE ? this.values[i]! : state === NULL ? null : undefined;
  }
}

/** Each distinct value of the leg or text columns once, by position; absent and null as their positions. */
export class ValueList<T extends object | string> {
  readonly list: T[] = [];
  private readonly listed = new Map<T, number>();

  at(value: T | null | undefined): number {
    if (value === undefined) return ABSENT_POSITION;
    if (value === null) return NULL_POSITION;
    let at = this.listed.get(value);
    if (at === undefined) {
      at = this.list.length;
      this.list.push(value);
      this.listed.set(value, at);
    }
    return at;
  }
}

/** Every column but the ids: positions for legs and texts, numbers with their states. */
export type ColumnArrays = { [N in Exclude<ColumnName, "id">]: KindOf<N> extends "number" ? NumberColumn : Uint32Array };

export interface OpportunityColumns extends ColumnArrays {
  count: number;
  /** The items' keys in the order an item has them (absent ones included). */
  keys: readonly string[];
  /**
   * The items' ids; null when each is its pair's standard id, `symbol-long-short` (`opportunityId`),
   * as every ranked item's is: 150,000 texts a round neither built, stored nor diffed (`idReader`).
   */
  ids: readonly string[] | null;
  legs: readonly OpportunityLeg[];
  texts: readonly string[];
}

/**
 * Columns for `count` items, every number absent and every position 0 in a new buffer. Written out
 * as one object literal, not assigned name by name: V8 keeps an object given 20 properties by
 * computed name as a dictionary, and a loop reading its columns 150,000 times ran three times
 * slower. Every array is a view of one buffer: `slab` when given (ColumnSlabs, as an older set
 * left it), else a new one. One buffer, not one per array: V8 weighs each new buffer against the
 * external memory allocated since its last full collection and, past a limit (as once a round's
 * set has arrived), advances its marking 5–10 ms in that allocation, so a copy made in a round's
 * hold paid it 32 times.
 */
export function emptyColumnArrays(count: number, slab: ArrayBufferLike = new ArrayBuffer(count * ITEM_BYTES)): ColumnArrays {
  let at = 0;
  // The widest arrays first, so every view starts at a multiple of its element size.
  const make = <T>(type: { new (buffer: ArrayBufferLike, offset: number, length: number): T; BYTES_PER_ELEMENT: number }, n: number) =>
    Array.from({ length: n }, () => {
      const array = new type(slab, at, count);
      at += count * type.BYTES_PER_ELEMENT;
      return array;
    });
  const values = make(Float64Array, NUMBER_COLUMNS);
  const positions = make(Uint32Array, POSITION_COLUMNS);
  const states = make(Uint8Array, NUMBER_COLUMNS);
  const number = () => new NumberColumn(values.pop()!, states.pop()!);
  const position = () => positions.pop()!;
  return {
    symbol: position(),
    type: position(),
    long: position(),
    short: position(),
    apr: number(),
    net_apr: number(),
    funding_spread_8h: number(),
    price_spread_bps: number(),
    price_spread_unavailable_reason: position(),
    open_interest_usd: number(),
    volume_24h_usd: number(),
    updated_at: position(),
    apr_1d_avg: number(),
    apr_7d_avg: number(),
    "persistence.as_of": position(),
    "persistence.positive_since": position(),
    "persistence.apr_median_7d": number(),
    "persistence.apr_median_30d": number(),
    "persistence.paid_share_7d": number(),
    "persistence.apr_stddev_7d": number(),
  };
}

const NUMBER_COLUMNS = COLUMNS.filter((c) => c.kind === "number").length;
const POSITION_COLUMNS = COLUMNS.filter((c) => c.kind === "leg" || c.kind === "text").length;
/** Bytes a set's columns take an item: a value and a state per number, a position per leg or text. */
const ITEM_BYTES = NUMBER_COLUMNS * 9 + POSITION_COLUMNS * 4;

/**
 * Memory for the columns of sets made one after another (an ingestion round's): each set's arrays
 * are views of one slab, and a slab given back once nothing reads its set any more is used again.
 * 150,000 items' columns are 21 MB, and memory new to the process costs its first write of every
 * page (the kernel maps it then): ~90 ms a round on a small virtual machine. One spare slab is
 * kept: a round's set is read until the next round's replaces it, so two slabs take turns.
 */
export class ColumnSlabs {
  private readonly spares: ArrayBufferLike[] = [];
  private readonly made = new WeakSet<ArrayBufferLike>();

  private readonly working: ScratchArrays;

  /**
   * `keep`: how many slabs given back are kept for later sets (one for rounds: their sets take
   * turns in two slabs). `shared`: slabs and working arrays in SharedArrayBuffers, so a second
   * thread can write rows of a ranking into them (ComputeOpportunitiesOptions.rowWriter).
   */
  constructor(
    private readonly keep = 1,
    private readonly shared = false,
  ) {
    this.working = new ScratchArrays(shared);
  }

  /**
   * The working arrays of the next ranking into these slabs (its pairs, APRs and sort), in the
   * buffers the last one used: valid until the next call, so for one ranking at a time, as rounds are.
   */
  scratch(): TakeArray {
    return this.working.newRun();
  }

  /**
   * Columns for `count` items laid out as emptyColumnArrays lays them, in the smallest spare slab
   * they fit or a new one: not zeroed, since the ranking writes every item of every column
   * (pair-rows.ts, and the texts after) and a set's 60 MB at 46 venues took its thread ~20 ms to
   * zero. A caller leaving any unwritten writes it itself.
   */
  take(count: number): ColumnArrays {
    const bytes = count * ITEM_BYTES;
    let fit = -1;
    this.spares.forEach((spare, i) => {
      if (spare.byteLength >= bytes && (fit < 0 || spare.byteLength < this.spares[fit]!.byteLength)) fit = i;
    });
    let slab: ArrayBufferLike;
    if (fit >= 0) slab = this.spares.splice(fit, 1)[0]!;
    else {
      slab = roomyBuffer(bytes, this.shared);
      this.made.add(slab);
    }
    return emptyColumnArrays(count, slab);
  }

  /**
   * The slab under `columns` back for a later set: nothing may read them afterwards. Columns not
   * taken here (a set read back from the database) are left to the garbage collector, as is the
   * oldest spare beyond `keep`.
   */
  giveBack(columns: ColumnArrays): void {
    const slab = columns.apr.values.buffer;
    if (!this.made.has(slab) || this.spares.includes(slab)) return;
    this.spares.push(slab);
    if (this.spares.length > this.keep) this.spares.shift();
  }
}

/**
 * The items in columns; throws on a number that is not finite. One pass over the items, each field
 * read by name: reading them through accessors, a column at a time, took half a second at 150,000
 * items (a call the engine cannot specialise, and 21 passes over memory).
 */
export function columnsOf(items: readonly Opportunity[]): OpportunityColumns {
  const count = items.length;
  const legs = new ValueList<OpportunityLeg>();
  const texts = new ValueList<string>();
  const ids = new Array<string>(count);
  const c = emptyColumnArrays(count);
  for (let i = 0; i < count; i++) {
    const o = items[i]!;
    ids[i] = o.id;
    c.symbol[i] = texts.at(o.symbol);
    c.type[i] = texts.at(o.type);
    c.long[i] = legs.at(o.long);
    c.short[i] = legs.at(o.short);
    c.apr.put(i, o.apr);
    c.net_apr.put(i, o.net_apr);
    c.funding_spread_8h.put(i, o.funding_spread_8h);
    c.price_spread_bps.put(i, o.price_spread_bps);
    c.price_spread_unavailable_reason[i] = texts.at(o.price_spread_unavailable_reason);
    c.open_interest_usd.put(i, o.open_interest_usd);
    c.volume_24h_usd.put(i, o.volume_24h_usd);
    c.updated_at[i] = texts.at(o.updated_at);
    c.apr_1d_avg.put(i, o.apr_1d_avg);
    c.apr_7d_avg.put(i, o.apr_7d_avg);
    const p = o.persistence as Persistence | undefined;
    c["persistence.as_of"][i] = texts.at(p?.as_of);
    c["persistence.positive_since"][i] = texts.at(p?.positive_since);
    c["persistence.apr_median_7d"].put(i, p?.apr_median_7d);
    c["persistence.apr_median_30d"].put(i, p?.apr_median_30d);
    c["persistence.paid_share_7d"].put(i, p?.paid_share_7d);
    c["persistence.apr_stddev_7d"].put(i, p?.apr_stddev_7d);
  }
  return { ...c, count, keys: items[0] ? Object.keys(items[0]) : [], ids, legs: legs.list, texts: texts.list };
}

/** A leg or text column's cell: the listed value, null, or undefined when absent. */
function listedReader<T>(positions: Uint32Array, list: readonly T[]): (i: number) => T | null | undefined {
  return (i) => {
    const position = positions[i]!;
    return position === NULL_POSITION ? null : position === ABSENT_POSITION ? undefined : list[position];
  };
}

/** Reads one column of item `i` as the served item holds it (undefined: absent). */
export function cellReader(columns: OpportunityColumns, name: Exclude<ColumnName, "id">): (i: number) => unknown {
  const column = columns[name];
  if (column instanceof NumberColumn) return (i) => column.at(i);
  const kind = name in FIELD_KINDS ? FIELD_KINDS[name as keyof typeof FIELD_KINDS] : "text";
  return listedReader<unknown>(column, kind === "leg" ? columns.legs : columns.texts);
}

/** Item `i`'s id: its own, or its pair's standard one (`OpportunityColumns.ids`). */
export function idReader(columns: OpportunityColumns): (i: number) => string {
  const { ids, symbol, long, short, legs, texts } = columns;
  if (ids) return (i) => ids[i]!;
  return (i) => opportunityId(texts[symbol[i]!]!, legs[long[i]!]!.exchange, legs[short[i]!]!.exchange);
}

/** Stable across refreshes: the same asset and the same long/short venues give the same id. */
export function opportunityId(symbol: string, longExchange: string, shortExchange: string): string {
  return `${symbol}-${longExchange}-${shortExchange}`;
}

/**
 * Builds the items of `columns` as the API serves them: their fields in the set's key order, absent
 * ones left out, legs shared. Each field's reader is made once, not once per item.
 */
export function itemReader(columns: OpportunityColumns): (i: number) => Opportunity {
  const fields = columns.keys.map((key): [string, (i: number) => unknown] => {
    if (key === "id") return [key, idReader(columns)];
    if (key !== "persistence") return [key, cellReader(columns, key as Exclude<keyof typeof FIELD_KINDS, "id">)];
    const nested = (Object.keys(PERSISTENCE_KINDS) as (keyof Persistence)[]).map((field) => [field, cellReader(columns, `persistence.${field}`)] as const);
    return [
      key,
      (i) => {
        const value: Record<string, unknown> = {};
        for (const [field, read] of nested) {
          const cell = read(i);
          if (cell !== undefined) value[field] = cell;
        }
        return value;
      },
    ];
  });
  return (i) => {
    const item: Record<string, unknown> = {};
    for (const [key, read] of fields) {
      const value = read(i);
      if (value !== undefined) item[key] = value;
    }
    return item as Opportunity;
  };
}

/** `itemReader`, or for a set ranked with every key its faster form (`rankedItemReader`): what builds served items. */
export function itemBuilder(columns: OpportunityColumns): (i: number) => Opportunity {
  return rankedItemReader(columns) ?? itemReader(columns);
}

export function itemsOf(columns: OpportunityColumns): Opportunity[] {
  const read = itemBuilder(columns);
  return Array.from({ length: columns.count }, (_, i) => read(i));
}

/** An opportunity's keys as rank-opportunities.ts ranks them, in order. */
export const ITEM_KEYS = [
  "id",
  "symbol",
  "type",
  "long",
  "short",
  "apr",
  "net_apr",
  "funding_spread_8h",
  "price_spread_bps",
  "price_spread_unavailable_reason",
  "open_interest_usd",
  "volume_24h_usd",
  "updated_at",
  "persistence",
] as const satisfies readonly (keyof Opportunity)[];

/** The keys of a set ranked with the averages (rounds' and micro-batches'), in order. */
const RANKED_KEYS = [...ITEM_KEYS, "apr_1d_avg", "apr_7d_avg"] as const;

/**
 * `itemReader` for the sets rounds and micro-batches rank, whose items have every key of
 * RANKED_KEYS in that order: each item one object literal, so every item has the same shape from
 * the start. Built key by key, 150,000 items went through the engine's generic property stores, a
 * third of a batch's cost to the server applying it. An item with an absent cell is built by
 * `itemReader`. Undefined for sets with other keys.
 */
function rankedItemReader(c: OpportunityColumns): ((i: number) => Opportunity) | undefined {
  if (c.keys.length !== RANKED_KEYS.length || c.keys.some((key, i) => key !== RANKED_KEYS[i])) return undefined;
  const generic = itemReader(c);
  const id = idReader(c);
  const { legs, texts } = c;
  const positions = COLUMNS.filter((column) => column.kind === "leg" || column.kind === "text").map((column) => c[column.name as Exclude<ColumnName, "id">] as Uint32Array);
  const states = COLUMNS.filter((column) => column.kind === "number").map((column) => (c[column.name as Exclude<ColumnName, "id">] as NumberColumn).states);
  const absentIn = (i: number) => positions.some((column) => column[i] === ABSENT_POSITION) || states.some((column) => column[i] === ABSENT);
  const text = (position: number) => (position === NULL_POSITION ? null : texts[position]!);
  const leg = (position: number) => (position === NULL_POSITION ? null : legs[position]!);
  const number = (column: NumberColumn, i: number) => (column.states[i] === VALUE ? column.values[i]! : null);
  return (i) => {
    if (absentIn(i)) return generic(i);
    return {
      id: id(i),
      symbol: text(c.symbol[i]!),
      type: text(c.type[i]!),
      long: leg(c.long[i]!),
      short: leg(c.short[i]!),
      apr: number(c.apr, i),
      net_apr: number(c.net_apr, i),
      funding_spread_8h: number(c.funding_spread_8h, i),
      price_spread_bps: number(c.price_spread_bps, i),
      price_spread_unavailable_reason: text(c.price_spread_unavailable_reason[i]!),
      open_interest_usd: number(c.open_interest_usd, i),
      volume_24h_usd: number(c.volume_24h_usd, i),
      updated_at: text(c.updated_at[i]!),
      persistence: {
        as_of: text(c["persistence.as_of"][i]!),
        positive_since: text(c["persistence.positive_since"][i]!),
        apr_median_7d: number(c["persistence.apr_median_7d"], i),
        apr_median_30d: number(c["persistence.apr_median_30d"], i),
        paid_share_7d: number(c["persistence.paid_share_7d"], i),
        apr_stddev_7d: number(c["persistence.apr_stddev_7d"], i),
      },
      apr_1d_avg: number(c.apr_1d_avg, i),
      apr_7d_avg: number(c.apr_7d_avg, i),
    } as Opportunity;
  };
}
