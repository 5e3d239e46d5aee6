import { gunzipSync, gzipSync } from "node:zlib";
import { z } from "zod";
import {
  ABSENT_POSITION,
  COLUMNS,
  emptyColumnArrays,
  NULL_POSITION,
  NumberColumn,
  VALUE,
  type ColumnArrays,
  type OpportunityColumns,
} from "./opportunity-columns";
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
 * A column in the header. `same`, when every item has the same: the state of a number column
 * (which then stores no states, and no values unless that state is a value) or the position of a
 * leg or text column (which then stores nothing). The sandbox-free live set has whole columns of
 * null (persistence before a week of history) and of one text (`type`): 5 MB of 20 not written.
 */
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

/** A set held in columns as the stored bytes (format 3): the arrays written as they are, after the header; throws on a number that is not finite. */
export function encodeColumns(c: OpportunityColumns): Uint8Array<ArrayBuffer> {
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
  // Standard ids (null) are not written: the reader derives them from the symbol and the legs.
  const header: Header = { count: c.count, keys: [...c.keys], legs: [...c.legs], texts: [...c.texts], keyed: c.ids ? { id: [...c.ids] } : {}, columns };
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
 * A format-3 set's columns. Its legs are read by `readLeg` (which fills what older legs lack), each
 * distinct text is checked once against its field's schema and positions against the lists.
 */
export function decodeColumns(bytes: Uint8Array, readLeg: (leg: unknown) => OpportunityLeg): OpportunityColumns {
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
  const read = new Map<string, NumberColumn | Uint32Array>();
  let ids: string[] | null = null;
  for (const column of header.columns) {
    const known = COLUMNS.find((c) => c.name === column.name);
    if (!known || known.kind !== column.kind) throw new Error(`a stored opportunity set has a column this version does not know: ${column.name}`);
    if (column.kind === "key") {
      // Absent: every id is its pair's standard one (OpportunityColumns.ids).
      ids = header.keyed[column.name] ?? null;
      if (ids && ids.length !== count) throw new Error(`a stored opportunity set lacks some of its ${column.name} values`);
      continue;
    }
    const { same } = column;
    if (column.kind === "number") {
      const values = same === undefined || same === VALUE ? take((n) => new Float64Array(n), count, 8) : new Float64Array(count);
      const states = same === undefined ? take((n) => new Uint8Array(n), count, 1) : new Uint8Array(count).fill(same);
      read.set(column.name, new NumberColumn(values, states));
      continue;
    }
    const positions = same === undefined ? take((n) => new Uint32Array(n), count, 4) : new Uint32Array(count).fill(same);
    const limit = column.kind === "leg" ? legs.length : header.texts.length;
    for (const position of positions) {
      if (position >= limit && position !== NULL_POSITION && position !== ABSENT_POSITION) {
        throw new Error(`a stored opportunity's ${column.name} refers to ${column.kind} ${position}, which the set does not have`);
      }
    }
    if (column.kind === "text") checkTexts(column.name, positions, header.texts);
    read.set(column.name, positions);
  }
  // Into the one object shape emptyColumnArrays gives (its arrays replaced, no property added); a
  // column the set was written without (one added since) is absent from every item.
  const arrays = emptyColumnArrays(0) as unknown as Record<string, NumberColumn | Uint32Array>;
  for (const { name, kind } of COLUMNS) {
    if (name === "id") continue;
    arrays[name] = read.get(name) ?? (kind === "number" ? NumberColumn.empty(count) : new Uint32Array(count).fill(ABSENT_POSITION));
  }
  return { ...(arrays as unknown as ColumnArrays), count, keys: header.keys, ids, legs, texts: header.texts };
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
