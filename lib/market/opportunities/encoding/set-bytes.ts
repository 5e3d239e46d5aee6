import { promisify } from "node:util";
import { brotliCompress, brotliCompressSync, brotliDecompress, brotliDecompressSync, constants as zlibConstants, type BrotliOptions } from "node:zlib";
import { runInSlices, runWhole, type Sliced } from "@/lib/time-slices";
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
} from "./columns";
import { opportunitySchema, type Opportunity, type OpportunityLeg, type Persistence } from "../../model/types";
import { ScratchArrays, type TakeArray } from "./scratch-arrays";
import { readRecordTable, recordTable, recordTableSchema, sameThroughout, type TakeSection } from "./record-table";

const { long: legSchema } = opportunitySchema.shape;

/**
 * A published set's items in columns, what OpportunitySet.items holds: at 150,000 opportunities
 * (20+ venues × 600 assets) writing each item as JSON text takes a round about a second and
 * reading it back on every server two, most of it turning numbers into text and back. Here every
 * number is its eight bytes, in the body:
 *
 *   u32 LE header length | header JSON | padding to 8 | the legs' columns | the items' columns
 *
 * Each leg is stored once (a market is a leg of every pair it forms), as a record table
 * (record-table.ts: its fields' kinds and texts in the header, their values in columns). The header
 * also holds the items' distinct texts, the item keys in order and the column list; each item column
 * is one array with a value per item:
 * leg and text columns as u32 positions into the legs and the header's texts, number columns as f64
 * with a state byte per item (absent, null or a value). Absent and null stay apart, and every number
 * comes back bit for bit, so a set reads back exactly as it was written.
 *
 * Stored as "FOS4" | u32 LE body length | the body compressed by brotli at quality 1: 2 MB instead
 * of 14 at 150,000 items (runs of equal states, positions and pair figures), which the database
 * writes in a fifth of the time, and which is compressed on libuv's threads while the round's own
 * thread goes on. The set is rebuilt every round, so only the form rounds write is read, and the
 * one before it (the legs listed in the header), which a set stored before an upgrade has until the
 * next round replaces it.
 */
const MAGIC = [0x46, 0x4f, 0x53, 0x34]; // "FOS4"

/**
 * A column in the header. `same`, when every item has the same: the state of a number column
 * (which then stores no states, and no values unless that state is a value) or the position of a
 * leg or text column (which then stores nothing). The sandbox-free live set has whole columns of
 * null (persistence before a week of history) and of one text (`type`): 5 MB of 20 not written.
 */
const headerSchema = z.object({
  count: z.number().int().nonnegative(),
  keys: z.array(z.string()),
  /** The legs, their values in the body's first columns. */
  legTable: recordTableSchema.optional(),
  /**
   * How sets stored before the record table held their legs, still read: the fields of every leg
   * written as an array, in this order (a leg of other fields written as an object).
   */
  legKeys: z.array(z.string()).optional(),
  legs: z.array(z.unknown()).optional(),
  texts: z.array(z.string()),
  keyed: z.record(z.string(), z.array(z.string())),
  columns: z.array(
    z.object({ name: z.string(), kind: z.enum(["key", "leg", "number", "text"]), same: z.number().int().nonnegative().optional() }),
  ),
});
type Header = z.infer<typeof headerSchema>;

/**
 * A set held in columns as the stored bytes; throws on a number that is not finite. The
 * header and the body are written here, on the calling thread, and the body compressed on libuv's:
 * the caller may go on with other work until the bytes are needed.
 */
export async function encodeColumns(c: OpportunityColumns): Promise<Uint8Array<ArrayBuffer>> {
  const columns: Header["columns"] = [];
  const { table: legTable, sections } = recordTable(c.legs, sectionArrays());
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
  const header: Header = { count: c.count, keys: [...c.keys], legTable, texts: [...c.texts], keyed: c.ids ? { id: [...c.ids] } : {}, columns };
  return framedSet(MAGIC, header, sections);
}

/**
 * A set's stored bytes: `magic` | u32 LE body length | the body compressed, the body being
 * u32 LE header length | `header` as JSON | padding to 8 | each section, padded to 8. The sections
 * are copied into the body before this returns; the carry set is framed so too.
 */
export async function framedSet(magic: readonly number[], header: unknown, sections: readonly ArrayBufferView[]): Promise<Uint8Array<ArrayBuffer>> {
  const headerBytes = Buffer.from(JSON.stringify(header));
  const start = align8(4 + headerBytes.length);
  const size = sections.reduce((total, section) => align8(total + section.byteLength), start);
  const apart = size > COMPRESS_AT_ONCE_BYTES;
  // Laid out in one body, in the buffer the last large one used: handed to the compressor piece by
  // piece instead, each of its ~60 pieces waited for a turn of this thread, which a round keeps busy
  // deriving its events meanwhile, and the round waited ~60 ms for the compressor after them.
  const buffer = apart ? takeSpareBody(size) : Buffer.allocUnsafe(size);
  try {
    const body = layOut(buffer.subarray(0, size), headerBytes, start, sections);
    const compressed = apart ? await compressApart(body, String.fromCharCode(...magic)) : brotliCompressSync(body, { params: brotliParams(size) });
    const out = new Uint8Array(8 + compressed.length);
    out.set(magic, 0);
    new DataView(out.buffer).setUint32(4, size, true);
    out.set(compressed, 8);
    return out;
  } finally {
    if (apart) spareBody = buffer;
  }
}

/** `body` filled: the header's length and JSON from the start, each section from its 8-aligned offset, zeros between. */
function layOut(body: Buffer, headerBytes: Buffer, start: number, sections: readonly ArrayBufferView[]): Buffer {
  body.writeUInt32LE(headerBytes.length, 0);
  headerBytes.copy(body, 4);
  let at = 4 + headerBytes.length;
  for (const section of sections) {
    body.fill(0, at, align8(at));
    at = align8(at);
    at += Buffer.from(section.buffer, section.byteOffset, section.byteLength).copy(body, at);
  }
  body.fill(0, at);
  return body;
}

/** A framed set opened (`framedSet`): its header's JSON text, and its sections taken one after another. */
export interface UnframedSet {
  headerText: string;
  take: TakeSection;
}

/** Opens the bytes `framedSet` wrote with `magic`; `what` names the set in errors ("opportunity set"). */
export function unframedSet(stored: Uint8Array, magic: readonly number[], what: string): UnframedSet {
  const { compressed, size } = framed(stored, magic, what);
  return unframedBody(decompressBody(compressed, size, what), what);
}

/** `unframedSet` with the body decompressed on libuv's threads: tens of MB at a round's breadth, ~0.4 s of this thread otherwise. */
async function unframedSetApart(stored: Uint8Array, magic: readonly number[], what: string): Promise<UnframedSet> {
  const { compressed, size } = framed(stored, magic, what);
  return unframedBody(await decompressBodyApart(compressed, size, what), what);
}

function framed(stored: Uint8Array, magic: readonly number[], what: string): { compressed: Uint8Array; size: number } {
  if (!magic.every((byte, i) => stored[i] === byte)) throw new Error(`a stored ${what} is not in the form rounds write`);
  return { compressed: stored.subarray(8), size: new DataView(stored.buffer, stored.byteOffset, stored.byteLength).getUint32(4, true) };
}

function unframedBody(bytes: Buffer, what: string): UnframedSet {
  const headerLength = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength).getUint32(0, true);
  let at = align8(4 + headerLength);
  // Viewed in place where the decompressed body is aligned, otherwise copied out.
  const inPlace = bytes.byteOffset % 8 === 0;
  return {
    headerText: Buffer.from(bytes.buffer, bytes.byteOffset + 4, headerLength).toString("utf8"),
    take: (type, length) => {
      const end = at + length * type.BYTES_PER_ELEMENT;
      if (end > bytes.byteLength) throw new Error(`a stored ${what} ends before its columns do`);
      let array;
      if (inPlace) array = new type(bytes.buffer, bytes.byteOffset + at, length);
      else {
        array = new type(length);
        new Uint8Array(array.buffer).set(bytes.subarray(at, end));
      }
      at = align8(end);
      return array;
    },
  };
}

/**
 * Bodies up to this size are compressed on this thread, at once: a micro-batch's patch (a few
 * hundred pairs, tens of KB) takes a few milliseconds of brotli at quality 1, where waiting for
 * libuv's threads and the event loop's turns that hand each piece over took 60–70 ms on average
 * in a busy server (bench:freshness), on every batch's way to its subscribers.
 */
export const COMPRESS_AT_ONCE_BYTES = 256 * 1024;

/**
 * Arrays for a framed set's sections that `framedSet` copies into the body and nothing reads after
 * (a record table's: the legs', 5 MB a round at 46 venues), kept between sets as the rankings'
 * working arrays are (scratch-arrays.ts). Valid until the next call: take them and hand them to
 * `framedSet` in one synchronous stretch, which copies them before its first wait.
 */
export function sectionArrays(): TakeArray {
  return sectionScratch.newRun();
}
const sectionScratch = new ScratchArrays();

/**
 * The buffer the last large body was laid out in, free again once it was compressed: the next
 * round's body is copied into it rather than into new memory (a round's set is ~40 MB at 46 venues,
 * and that much new memory at once had V8 collect garbage in the middle of the round's publishing).
 */
let spareBody: Buffer | undefined;

function takeSpareBody(size: number): Buffer {
  const spare = spareBody;
  spareBody = undefined;
  return spare && spare.length >= size ? spare : Buffer.allocUnsafeSlow(size);
}

function brotliParams(size: number) {
  return { [zlibConstants.BROTLI_PARAM_QUALITY]: 1, [zlibConstants.BROTLI_PARAM_SIZE_HINT]: size };
}

/**
 * `body` compressed by brotli at quality 1 on libuv's threads, in one pass when the output buffer
 * holds what it compresses to, so this thread, which a round keeps busy, is needed once. The buffer
 * is sized by the ratio the last body of its `kind` compressed to, with a quarter to spare (a
 * quarter of the input before any): a round's set compresses to ~10 % of its ~40 MB and the carry
 * set to ~5 %, and an output buffer of a quarter was ~6 MB more new memory every round towards the
 * 64 MB of ArrayBuffers that start a full collection (scratch-arrays.ts).
 */
async function compressApart(body: Buffer, kind: string): Promise<Buffer> {
  const ratio = Math.min(0.25, (lastRatios.get(kind) ?? 0.25) * 1.25);
  // Finished in the one write that hands the body over: left to the stream's end, the last bytes
  // came as a second piece and the two were joined into a copy, ~4 MB more new memory a round.
  const compressed = await brotliCompressApart(body, {
    chunkSize: Math.max(64 * 1024, Math.ceil(body.length * ratio)),
    flush: zlibConstants.BROTLI_OPERATION_FINISH,
    params: brotliParams(body.length),
  });
  lastRatios.set(kind, compressed.length / body.length);
  return compressed;
}

/** By kind of body, the last one's compressed size over its size. */
const lastRatios = new Map<string, number>();

const brotliCompressApart = promisify<Uint8Array, BrotliOptions, Buffer>(brotliCompress);

/** A leg as sets stored before the record table wrote it: an array of values in `legKeys` order, or an object. */
export function legObject(written: unknown, legKeys: readonly string[]): unknown {
  if (!Array.isArray(written)) return written;
  if (written.length !== legKeys.length) throw new Error("a stored opportunity set has a leg that does not match its leg fields");
  const leg: Record<string, unknown> = {};
  for (let i = 0; i < legKeys.length; i++) leg[legKeys[i]!] = written[i];
  return leg;
}

/**
 * A stored body, which must decompress to exactly `size` bytes: into one buffer of that size
 * (up to 64 MB; beyond, in pieces), and never past it, so a damaged length cannot make it grow.
 */
function decompressBody(compressed: Uint8Array, size: number, what: string): Buffer {
  try {
    return ofLength(brotliDecompressSync(compressed, decompressOptions(size)), size, what);
  } catch (error) {
    throw tooLong(error, what);
  }
}

const brotliDecompressApart = promisify<Uint8Array, BrotliOptions, Buffer>(brotliDecompress);

/** `decompressBody` on libuv's threads. */
async function decompressBodyApart(compressed: Uint8Array, size: number, what: string): Promise<Buffer> {
  try {
    return ofLength(await brotliDecompressApart(compressed, decompressOptions(size)), size, what);
  } catch (error) {
    throw tooLong(error, what);
  }
}

function decompressOptions(size: number): BrotliOptions {
  return { chunkSize: Math.min(Math.max(64 * 1024, size), 64 * 2 ** 20), maxOutputLength: Math.max(1, size) };
}

function wrongLength(what: string): Error {
  return new Error(`a stored ${what} is not as long as it says`);
}

function ofLength(body: Buffer, size: number, what: string): Buffer {
  if (body.byteLength !== size) throw wrongLength(what);
  return body;
}

/** A body longer than it says stops the decompressor: the same error as one shorter. */
function tooLong(error: unknown, what: string): unknown {
  return (error as { code?: string }).code === "ERR_BUFFER_TOO_LARGE" ? wrongLength(what) : error;
}

function align8(offset: number): number {
  return Math.ceil(offset / 8) * 8;
}

/**
 * A stored set's columns: each leg is checked against the item schema, each distinct text once
 * against its field's, and positions against the lists.
 */
export function decodeColumns(stored: Uint8Array): OpportunityColumns {
  return runWhole(decodeSlices(unframedSet(stored, MAGIC, "opportunity set")));
}

/**
 * `decodeColumns` giving the event loop a turn every `sliceMs`, its body decompressed on libuv's
 * threads: a server that does not ingest reads every round's set, and at 350,000 items decoding
 * it at once held the thread for 0.75–1.7 s (0.4 s of it decompressing) on a loaded machine.
 */
export async function decodeColumnsInSlices(stored: Uint8Array, sliceMs?: number): Promise<OpportunityColumns> {
  return runInSlices(decodeSlices(await unframedSetApart(stored, MAGIC, "opportunity set")), sliceMs);
}

/** Legs checked between two pause points of `decodeSlices`. */
const LEGS_A_SLICE = 1_024;
/** Positions checked between two pause points of `decodeSlices`. */
const POSITIONS_A_SLICE = 65_536;

function* decodeSlices({ headerText, take }: UnframedSet): Sliced<OpportunityColumns> {
  const header = headerSchema.parse(JSON.parse(headerText));
  yield;
  const { count } = header;
  const written = legsWritten(header, take);
  yield;
  const legs: OpportunityLeg[] = [];
  for (let i = 0; i < written.length; i++) {
    if (i % LEGS_A_SLICE === LEGS_A_SLICE - 1) yield;
    legs.push(legSchema.parse(written[i]));
  }
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
      const values = same === undefined || same === VALUE ? take(Float64Array, count) : new Float64Array(count);
      const states = same === undefined ? take(Uint8Array, count) : new Uint8Array(count).fill(same);
      read.set(column.name, new NumberColumn(values, states));
      continue;
    }
    const positions = same === undefined ? take(Uint32Array, count) : new Uint32Array(count).fill(same);
    const limit = column.kind === "leg" ? legs.length : header.texts.length;
    for (let i = 0; i < positions.length; i++) {
      if (i % POSITIONS_A_SLICE === POSITIONS_A_SLICE - 1) yield;
      const position = positions[i]!;
      if (position >= limit && position !== NULL_POSITION && position !== ABSENT_POSITION) {
        throw new Error(`a stored opportunity's ${column.name} refers to ${column.kind} ${position}, which the set does not have`);
      }
    }
    if (column.kind === "text") yield* checkTexts(column.name, positions, header.texts);
    read.set(column.name, positions);
  }
  // Into the one object shape emptyColumnArrays gives (its arrays replaced, no property added).
  const arrays = emptyColumnArrays(0) as unknown as Record<string, NumberColumn | Uint32Array>;
  for (const { name } of COLUMNS) {
    if (name === "id") continue;
    const column = read.get(name);
    if (!column) throw new Error(`a stored opportunity set lacks its ${name} column`);
    arrays[name] = column;
  }
  return { ...(arrays as unknown as ColumnArrays), count, keys: header.keys, ids, legs, texts: header.texts };
}

/** A stored set's legs as plain objects, unchecked: from its record table, or from the lists sets stored before it. */
function legsWritten(header: Header, take: TakeSection): unknown[] {
  if (header.legTable) return readRecordTable(header.legTable, take);
  const { legs, legKeys } = header;
  if (!legs || !legKeys) throw new Error("a stored opportunity set lists no legs");
  return legs.map((leg) => legObject(leg, legKeys));
}

const { persistence: persistenceShape } = opportunitySchema.shape;

/** Each distinct text a column uses, checked once against its field's schema. */
function* checkTexts(name: string, positions: Uint32Array, texts: readonly string[]): Sliced<void> {
  const [parent, field] = name.split(".");
  const schema = field ? persistenceShape.shape[field as keyof Persistence] : opportunitySchema.shape[parent as keyof Opportunity];
  const seen = new Set<number>();
  for (let i = 0; i < positions.length; i++) {
    if (i % POSITIONS_A_SLICE === POSITIONS_A_SLICE - 1) yield;
    const position = positions[i]!;
    if (position === NULL_POSITION || position === ABSENT_POSITION || seen.has(position)) continue;
    seen.add(position);
    const checked = schema.safeParse(texts[position]);
    if (!checked.success) throw new Error(`a stored opportunity's ${name} is not valid: ${JSON.stringify(texts[position])}`);
  }
}
