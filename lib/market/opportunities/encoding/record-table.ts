import { z } from "zod";
import { newArray, type TakeArray } from "./scratch-arrays";

/**
 * A list of flat records (a set's legs) as columns of a stored set's body rather than as JSON in its
 * header: at benchmark breadth a round's 26,000 legs were 9 MB of header text, ~50 ms of the round's
 * thread turning their numbers into text (and each server's turning them back). Here a number field
 * is its values' eight bytes, a text field positions into one list of its distinct texts, a boolean
 * its state; each field has a state per record (absent, null, or a value), stored only when the
 * records differ in it. A field holding values of more than one kind is written as their JSON texts.
 *
 * Records come back with their fields in the order the fields first appeared, absent ones left out;
 * every number bit for bit, and a number JSON cannot carry (NaN, ±Infinity) as null, as JSON writes it.
 */
export const recordTableSchema = z.object({
  count: z.number().int().nonnegative(),
  fields: z.array(
    z.object({
      name: z.string(),
      kind: z.enum(["number", "text", "boolean", "json"]),
      /** The state every record holds in this field, when they all hold the same (its states are then not stored). */
      same: z.number().int().min(0).max(3).optional(),
    }),
  ),
  texts: z.array(z.string()),
});
export type RecordTable = z.infer<typeof recordTableSchema>;

/** A typed array's constructor, as a stored body's sections are read. */
export type ArrayType<T> = { new (length: number): T; new (buffer: ArrayBufferLike, offset: number, length: number): T; BYTES_PER_ELEMENT: number };

/** Takes a stored body's next section as `length` elements of `type` (set-bytes.ts, `UnframedSet`). */
export type TakeSection = <T extends Float64Array | Uint32Array | Uint8Array>(type: ArrayType<T>, length: number) => T;
type Field = RecordTable["fields"][number];

// A field's state in a record. A boolean's value is its state: FALSE or TRUE.
const ABSENT = 0;
const NULL = 1;
const VALUE = 2;
const FALSE = VALUE;
const TRUE = 3;

/** A field being written: each record's state, and its numbers or its texts' positions as they come. */
interface FieldColumn {
  name: string;
  states: Uint8Array;
  numbers?: Float64Array;
  positions?: Uint32Array;
  /** The kinds of value seen (NUMBERS | TEXTS | BOOLEANS | OTHERS). */
  seen: number;
  /** The last text written and its position: neighbouring records (a venue's legs) mostly repeat it. */
  lastText?: string;
  lastPosition: number;
}
const NUMBERS = 1;
const TEXTS = 2;
const BOOLEANS = 4;
const OTHERS = 8;

/**
 * A record table's header part and its sections, in the order `readRecordTable` takes them. The
 * records are plain objects; each is read once, its fields in their own order (a field's position
 * is guessed from the one before, so records built alike cost no lookup). The sections' arrays come
 * from `take` (a framed set's, set-bytes.ts `sectionArrays`, kept between sets), new ones without.
 */
export function recordTable(records: readonly object[], take: TakeArray = newArray): { table: RecordTable; sections: ArrayBufferView[] } {
  const count = records.length;
  const texts: string[] = [];
  const textAt = new Map<string, number>();
  const position = (text: string) => {
    let at = textAt.get(text);
    if (at === undefined) textAt.set(text, (at = texts.push(text) - 1));
    return at;
  };
  const columns: FieldColumn[] = [];
  const fieldAt = new Map<string, number>();
  const fieldOf = (name: string) => {
    let at = fieldAt.get(name);
    if (at === undefined) {
      fieldAt.set(name, (at = columns.length));
      columns.push({ name, states: take(Uint8Array, count), seen: 0, lastPosition: 0 });
    }
    return at;
  };
  for (let r = 0; r < count; r++) {
    const record = records[r] as Record<string, unknown>;
    let next = 0;
    for (const name in record) {
      const f = columns[next]?.name === name ? next : fieldOf(name);
      next = f + 1;
      const value = record[name];
      const column = columns[f]!;
      if (value === undefined) continue; // ABSENT, as JSON leaves an undefined field out
      if (value === null) column.states[r] = NULL;
      else if (typeof value === "number") {
        if (!Number.isFinite(value)) column.states[r] = NULL;
        else {
          column.states[r] = VALUE;
          (column.numbers ??= take(Float64Array, count))[r] = value;
          column.seen |= NUMBERS;
        }
      } else if (typeof value === "string") {
        column.states[r] = VALUE;
        if (value !== column.lastText) column.lastPosition = position((column.lastText = value));
        (column.positions ??= take(Uint32Array, count))[r] = column.lastPosition;
        column.seen |= TEXTS;
      } else if (typeof value === "boolean") {
        column.states[r] = value ? TRUE : FALSE;
        column.seen |= BOOLEANS;
      } else {
        column.states[r] = VALUE;
        column.seen |= OTHERS;
      }
    }
  }
  const fields: Field[] = [];
  const sections: ArrayBufferView[] = [];
  for (const column of columns) {
    const kind = kindOf(column.seen);
    // Values of several kinds, or objects: each written as its JSON text.
    if (kind === "json") column.positions = jsonPositions(records, column, position, take);
    const same = sameThroughout(column.states);
    fields.push(same === undefined ? { name: column.name, kind } : { name: column.name, kind, same });
    if (same === undefined) sections.push(column.states);
    if (kind === "boolean" || (same !== undefined && same !== VALUE)) continue;
    sections.push(kind === "number" ? (column.numbers ?? take(Float64Array, count)) : (column.positions ?? take(Uint32Array, count)));
  }
  return { table: { count, fields, texts }, sections };
}

function kindOf(seen: number): Field["kind"] {
  if (seen === 0 || seen === NUMBERS) return "number";
  if (seen === TEXTS) return "text";
  if (seen === BOOLEANS) return "boolean";
  return "json";
}

/** A field of several kinds: each value's JSON text's position, its state a value (a boolean's too). */
function jsonPositions(records: readonly object[], column: FieldColumn, position: (text: string) => number, take: TakeArray): Uint32Array {
  const positions = take(Uint32Array, records.length);
  for (let r = 0; r < records.length; r++) {
    if (column.states[r] === ABSENT || column.states[r] === NULL) continue;
    column.states[r] = VALUE;
    positions[r] = position(JSON.stringify((records[r] as Record<string, unknown>)[column.name]));
  }
  return positions;
}

/** The records `recordTable` wrote, taking its sections in order with `take`; each a plain object, unchecked. */
export function readRecordTable(table: RecordTable, take: TakeSection): Record<string, unknown>[] {
  const { count, texts } = table;
  const columns = table.fields.map((field) => {
    const states = field.same === undefined ? take(Uint8Array, count) : new Uint8Array(count).fill(field.same);
    const stored = field.kind !== "boolean" && (field.same === undefined || field.same === VALUE);
    const values = stored ? (field.kind === "number" ? take(Float64Array, count) : take(Uint32Array, count)) : undefined;
    return { field, states, values };
  });
  const records: Record<string, unknown>[] = [];
  for (let r = 0; r < count; r++) {
    const record: Record<string, unknown> = {};
    for (const { field, states, values } of columns) {
      const state = states[r];
      if (state === ABSENT) continue;
      record[field.name] = state === NULL ? null : valueOf(field, state!, values?.[r], texts);
    }
    records.push(record);
  }
  return records;
}

function valueOf(field: Field, state: number, value: number | undefined, texts: readonly string[]): unknown {
  if (field.kind === "boolean") {
    if (state !== TRUE && state !== FALSE) throw new Error(`a stored record's ${field.name} has no state ${state}`);
    return state === TRUE;
  }
  if (state !== VALUE || value === undefined) throw new Error(`a stored record's ${field.name} has no state ${state}`);
  if (field.kind === "number") return value;
  const text = texts[value];
  if (text === undefined) throw new Error(`a stored record's ${field.name} refers to text ${value}, which the table does not have`);
  return field.kind === "text" ? text : JSON.parse(text);
}

/**
 * The one value every element holds, or undefined when they differ (or there are none). Compared
 * natively, a block of bytes at a time: a set's columns are 450,000 long, and a loop taking both
 * kinds of array spent ~10 ms a set here.
 */
export function sameThroughout(values: Uint8Array | Uint32Array): number | undefined {
  if (values.length === 0) return undefined;
  const bytes = Buffer.from(values.buffer, values.byteOffset, values.byteLength);
  const width = values.BYTES_PER_ELEMENT;
  // The first block holds one value when it equals itself shifted by one element; each later block
  // then when it equals the first.
  const block = Math.min(bytes.length, SAME_BLOCK_BYTES);
  if (!bytes.subarray(0, block - width).equals(bytes.subarray(width, block))) return undefined;
  for (let at = block; at < bytes.length; at += block) {
    const length = Math.min(block, bytes.length - at);
    if (!bytes.subarray(0, length).equals(bytes.subarray(at, at + length))) return undefined;
  }
  return values[0];
}

/** A multiple of every element width sameThroughout takes. */
const SAME_BLOCK_BYTES = 4_096;
