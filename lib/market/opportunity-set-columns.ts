import { gunzipSync, gzipSync } from "node:zlib";
import { z } from "zod";
import { opportunitySchema, type Opportunity, type OpportunityLeg, type Persistence } from "./types";

/**
 * A published set's items in columns (format 3), what OpportunitySet.items holds since rounds reached
 * 150,000 opportunities (20+ venues × 600 assets): writing each item as JSON text took a round
 * about a second and reading it back on every server two, most of it turning numbers into text
 * and back. Here every number is its eight bytes:
 *
 *   "FOS3" | u32 LE header length | gzipped header JSON | padding to 8 | the columns
 *
 * The header holds each leg once (a market is a leg of every pair it forms), the distinct texts,
 * the item keys in order and the column list; each column is one array with a value per item:
 * leg and text columns as u32 positions into the header's lists, number columns as f64 with a
 * state byte per item (absent, null or a value). Absent and null stay apart, and every number comes
 * back bit for bit, so a set reads back exactly as it was written.
 */
export const COLUMNS_MAGIC = [0x46, 0x4f, 0x53, 0x33]; // "FOS3"

/**
 * `key`: a text every item has its own of (the id), kept in item order; `text`: a text few items
 * differ in, each distinct one stored once; `leg`: a position in the leg list; `number`: f64.
 */
type Kind = "key" | "leg" | "number" | "text";

/** Every item field's kind: TypeScript refuses this table when a field is added and not listed. */
const FIELD_KINDS: { [K in Exclude<keyof Opportunity, "persistence">]-?: Kind } = {
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
};

/** The persistence object's fields, stored as columns `persistence.<field>`. */
const PERSISTENCE_KINDS: { [K in keyof Persistence]-?: "number" | "text" } = {
  as_of: "text",
  positive_since: "text",
  apr_median_7d: "number",
  apr_median_30d: "number",
  paid_share_7d: "number",
  apr_stddev_7d: "number",
};

type ColumnName = keyof typeof FIELD_KINDS | `persistence.${keyof Persistence}`;

/** A column's value states; a text or leg column stores its absent and null as these positions. */
const ABSENT = 0;
const NULL = 1;
const VALUE = 2;
const NULL_POSITION = 0xffff_ffff;
const ABSENT_POSITION = 0xffff_fffe;

/**
 * A column in the header. `same`, when every item has the same: the state of a number column
 * (which then stores no states, and no values unless that state is a value) or the position of a
 * leg or text column (which then stores nothing). The sandbox-free live set has whole columns of
 * null (persistence before a week of history) and of one text (`type`): 5 MB of 20 not written.
 */
interface ColumnHeader {
  /** The item key, or `persistence.<key>` for the persistence object's fields. */
  name: string;
  kind: Kind;
}

const headerSchema = z.object({
  count: z.number().int().nonnegative(),
  keys: z.array(z.string()),
  legs: z.array(z.unknown()),
  texts: z.array(z.string()),
  keyed: z.record(z.string(), z.array(z.string())),
  columns: z.array(
    z.object({ name: z.string(), kind: z.enum(["key", "leg", "number", "text"]), same: z.number().int().nonnegative().optional() }),
  ),
});
type Header = z.infer<typeof headerSchema>;

/** The columns in a fixed order: the item's fields, then the persistence object's. */
const COLUMNS: readonly { name: ColumnName; kind: Kind }[] = [
  ...Object.entries(FIELD_KINDS).map(([name, kind]) => ({ name: name as ColumnName, kind })),
  ...Object.entries(PERSISTENCE_KINDS).map(([name, kind]) => ({ name: `persistence.${name}` as ColumnName, kind })),
];

/** Each distinct value of the leg or text columns once, by position; absent and null as their positions. */
class ValueList<T extends object | string> {
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

/** A number column: the values, and each item's state (absent, null or a value). */
class NumberColumn {
  readonly values: Float64Array;
  readonly states: Uint8Array;

  constructor(count: number) {
    this.values = new Float64Array(count);
    this.states = new Uint8Array(count);
  }

  put(i: number, value: number | null | undefined): void {
    if (value === undefined) this.states[i] = ABSENT;
    else if (value === null) this.states[i] = NULL;
    else if (Number.isFinite(value)) {
      this.states[i] = VALUE;
      this.values[i] = value;
    } else throw new Error(`a number that is not finite cannot be stored: ${value}`);
  }
}

/**
 * The items in columns; throws on a number that is not finite. One pass over the items, each field
 * read by name: reading them through the FIELDS accessors, a column at a time, took half a second
 * at 150,000 items (a call the engine cannot specialise, and 21 passes over memory).
 */
export function packColumns(items: readonly Opportunity[]): Uint8Array<ArrayBuffer> {
  const count = items.length;
  const legs = new ValueList<OpportunityLeg>();
  const texts = new ValueList<string>();
  const ids = new Array<string>(count);
  const position = () => new Uint32Array(count);
  const number = () => new NumberColumn(count);
  const c = {
    symbol: position(), type: position(), long: position(), short: position(), apr: number(), net_apr: number(),
    funding_spread_8h: number(), price_spread_bps: number(), price_spread_unavailable_reason: position(),
    open_interest_usd: number(), volume_24h_usd: number(), updated_at: position(), apr_1d_avg: number(), apr_7d_avg: number(),
    "persistence.as_of": position(), "persistence.positive_since": position(), "persistence.apr_median_7d": number(),
    "persistence.apr_median_30d": number(), "persistence.paid_share_7d": number(), "persistence.apr_stddev_7d": number(),
  } satisfies Record<Exclude<ColumnName, "id">, Uint32Array | NumberColumn>;
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
  const keys = items[0] ? Object.keys(items[0]) : [];
  const columns: Header["columns"] = [];
  const sections: ArrayBufferView[] = [];
  for (const { name, kind } of COLUMNS) {
    if (name === "id") {
      columns.push({ name, kind });
      continue;
    }
    const column = c[name];
    const same = sameThroughout(column instanceof NumberColumn ? column.states : column);
    columns.push(same === undefined ? { name, kind } : { name, kind, same });
    if (column instanceof NumberColumn) {
      if (same === undefined || same === VALUE) sections.push(column.values);
      if (same === undefined) sections.push(column.states);
    } else if (same === undefined) sections.push(column);
  }
  const header: Header = { count, keys, legs: legs.list, texts: texts.list, keyed: { id: ids }, columns };
  const headerBytes = gzipSync(JSON.stringify(header), { level: 1 });
  const start = align8(8 + headerBytes.length);
  const size = sections.reduce((total, section) => align8(total + section.byteLength), start);
  const out = new Uint8Array(size);
  out.set(COLUMNS_MAGIC, 0);
  new DataView(out.buffer).setUint32(4, headerBytes.length, true);
  out.set(headerBytes, 8);
  let at = start;
  for (const section of sections) {
    out.set(new Uint8Array(section.buffer, section.byteOffset, section.byteLength), at);
    at = align8(at + section.byteLength);
  }
  return out;
}

/** The one value every element holds, or undefined when they differ (or there are none). */
function sameThroughout(values: Uint8Array | Uint32Array): number | undefined {
  const first = values[0];
  for (let i = 1; i < values.length; i++) if (values[i] !== first) return undefined;
  return first;
}

function align8(offset: number): number {
  return Math.ceil(offset / 8) * 8;
}

export function isColumns(bytes: Uint8Array): boolean {
  return COLUMNS_MAGIC.every((byte, i) => bytes[i] === byte);
}

/**
 * The items of a format-3 set. Its legs are read by `readLeg` (which fills what older legs lack),
 * each distinct text is checked once against its field's schema, positions against the lists, and
 * the items are rebuilt in the stored key order with their legs shared.
 */
export function unpackColumns(bytes: Uint8Array, readLeg: (leg: unknown) => OpportunityLeg): Opportunity[] {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const headerLength = view.getUint32(4, true);
  const header = headerSchema.parse(JSON.parse(gunzipSync(bytes.subarray(8, 8 + headerLength)).toString("utf8")));
  const { count } = header;
  const legs = header.legs.map(readLeg);
  let at = align8(8 + headerLength);
  // Copied out rather than viewed in place: the stored bytes need not sit at an aligned address.
  const take = <T>(make: (length: number) => T & ArrayBufferView, length: number, width: number): T => {
    const end = at + length * width;
    if (end > bytes.byteLength) throw new Error("a stored opportunity set ends before its columns do");
    const array = make(length);
    new Uint8Array(array.buffer).set(bytes.subarray(at, end));
    at = align8(end);
    return array;
  };
  const columns = header.columns.map((column): ReadColumn => {
    if (column.kind === "key") {
      const keyed = header.keyed[column.name];
      if (keyed?.length !== count) throw new Error(`a stored opportunity set lacks some of its ${column.name} values`);
      return { ...column, keyed };
    }
    const { same } = column;
    if (column.kind === "number") {
      const values = same === undefined || same === VALUE ? take((n) => new Float64Array(n), count, 8) : new Float64Array(0);
      const states = same === undefined ? take((n) => new Uint8Array(n), count, 1) : new Uint8Array(count).fill(same);
      return { ...column, values, states };
    }
    const positions = same === undefined ? take((n) => new Uint32Array(n), count, 4) : new Uint32Array(count).fill(same);
    const limit = column.kind === "leg" ? legs.length : header.texts.length;
    for (const position of positions) {
      if (position >= limit && position !== NULL_POSITION && position !== ABSENT_POSITION) {
        throw new Error(`a stored opportunity's ${column.name} refers to ${column.kind} ${position}, which the set does not have`);
      }
    }
    if (column.kind === "text") checkTexts(column.name, positions, header.texts);
    return { ...column, positions };
  });

  const topLevel = header.keys.map((key) => ({
    key,
    columns: columns.filter((c) => c.name === key || c.name.startsWith(`${key}.`)),
  }));
  const items: Opportunity[] = new Array(count);
  for (let i = 0; i < count; i++) {
    const item: Record<string, unknown> = {};
    for (const { key, columns: own } of topLevel) {
      if (own.length === 1 && own[0]!.name === key) {
        const value = cell(own[0]!, i, legs, header.texts);
        if (value !== ABSENT_CELL) item[key] = value;
        continue;
      }
      const nested: Record<string, unknown> = {};
      for (const column of own) {
        const value = cell(column, i, legs, header.texts);
        if (value !== ABSENT_CELL) nested[column.name.slice(key.length + 1)] = value;
      }
      item[key] = nested;
    }
    items[i] = item as Opportunity;
  }
  return items;
}

const ABSENT_CELL = Symbol("absent");

/** A stored column as read: its texts (`key`), numbers and states (`number`) or positions (`leg`, `text`). */
interface ReadColumn extends ColumnHeader {
  keyed?: readonly string[];
  values?: Float64Array;
  states?: Uint8Array;
  positions?: Uint32Array;
}

function cell(column: ReadColumn, i: number, legs: readonly OpportunityLeg[], texts: readonly string[]): unknown {
  if (column.keyed) return column.keyed[i];
  if (column.states && column.values) {
    const state = column.states[i];
    return state === VALUE ? column.values[i] : state === NULL ? null : ABSENT_CELL;
  }
  const position = column.positions![i]!;
  if (position === ABSENT_POSITION) return ABSENT_CELL;
  if (position === NULL_POSITION) return null;
  return column.kind === "leg" ? legs[position] : texts[position];
}

const { persistence: persistenceShape } = opportunitySchema.shape;

/** Each distinct text a column uses, checked once against its field's schema. */
function checkTexts(name: string, positions: Uint32Array, texts: readonly string[]): void {
  const [parent, field] = name.split(".");
  const schema = field ? persistenceShape.shape[field as keyof Persistence] : opportunitySchema.shape[parent as keyof Opportunity];
  const seen = new Set<number>();
  for (const position of positions) {
    if (position === NULL_POSITION || position === ABSENT_POSITION || seen.has(position)) continue;
    seen.add(position);
    const checked = schema.safeParse(texts[position]);
    if (!checked.success) throw new Error(`a stored opportunity's ${name} is not valid: ${JSON.stringify(texts[position])}`);
  }
}
