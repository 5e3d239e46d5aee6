import { z } from "zod";
import { runInSlices, type Sliced } from "@/lib/time-slices";
import { align8, compressPieces, decompressBody, legObject, legRows } from "../opportunities/encoding/set-bytes";
import { priceSpreadUnavailableReasonSchema } from "../model/price-spread";
import { opportunitySchema, persistenceSchema } from "../model/types";
import { CARRY_ARRAYS, emptyCarryColumns, NO_TEXT, type CarryColumns } from "./carry-columns";
import { CARRY_TYPES, carrySpotLegSchema } from "./carry-opportunity";

/**
 * A carry set's stored form, as the perp set's (../opportunities/encoding/set-bytes.ts, whose
 * framing and compression it shares): "FOC1" | u32 LE body length | the body compressed by brotli
 * at quality 1, the body being
 *
 *   u32 LE header length | header JSON | padding to 8 | each of CARRY_ARRAYS, padded to 8
 *
 * The header holds the lists (spot legs, perpetual legs with their symbols, persistence objects,
 * texts), each leg written as the array of its values with the fields named once; the arrays
 * are the columns' bytes as they are, so every number comes back bit for bit and a set reads back
 * exactly as it was written. A reader checks each listed leg, persistence and text against the
 * item schema's part for it, and each item's positions and numbers with a loop over the arrays,
 * never an item as an object. The set is rebuilt every round, so only the form rounds write is read.
 */
const MAGIC = [0x46, 0x4f, 0x43, 0x31]; // "FOC1"

const headerSchema = z.object({
  count: z.number().int().nonnegative(),
  spotKeys: z.array(z.string()),
  spots: z.array(z.unknown()),
  perpKeys: z.array(z.string()),
  perps: z.array(z.unknown()),
  perpSymbols: z.array(z.string()),
  persistences: z.array(persistenceSchema),
  texts: z.array(z.string()),
});
type Header = z.infer<typeof headerSchema>;

/**
 * The stored bytes of a carry set: the header written on the calling thread, the body compressed on
 * libuv's, reading the columns where they are (they must not change until it resolves).
 */
export async function encodeCarryColumns(c: CarryColumns): Promise<Uint8Array<ArrayBuffer>> {
  const spots = legRows(c.spots);
  const perps = legRows(c.perps);
  const header: Header = {
    count: c.count,
    spotKeys: spots.legKeys,
    spots: spots.legs,
    perpKeys: perps.legKeys,
    perps: perps.legs,
    perpSymbols: [...c.perpSymbols],
    persistences: [...c.persistences],
    texts: [...c.texts],
  };
  const headerBytes = Buffer.from(JSON.stringify(header));
  const start = align8(4 + headerBytes.length);
  const prefix = Buffer.alloc(start);
  prefix.writeUInt32LE(headerBytes.length, 0);
  headerBytes.copy(prefix, 4);
  const pieces: Buffer[] = [prefix];
  let size = start;
  for (const [name] of CARRY_ARRAYS) {
    const array = c[name];
    pieces.push(Buffer.from(array.buffer, array.byteOffset, array.byteLength));
    const padding = align8(array.byteLength) - array.byteLength;
    if (padding > 0) pieces.push(Buffer.alloc(padding));
    size += align8(array.byteLength);
  }
  const compressed = await compressPieces(pieces, size);
  const out = new Uint8Array(8 + compressed.length);
  out.set(MAGIC, 0);
  new DataView(out.buffer).setUint32(4, size, true);
  out.set(compressed, 8);
  return out;
}

/** A stored carry set's columns, decoded and checked in slices, the event loop turning between (lib/time-slices.ts). */
export function decodeCarryColumns(stored: Uint8Array, sliceMs?: number): Promise<CarryColumns> {
  return runInSlices(carryDecodeSlices(stored), sliceMs);
}

/** Legs, positions or numbers checked between two pause points. */
const CHECKED_A_SLICE = 1_024;
const ITEMS_A_SLICE = 32_768;

const { short: perpLegSchema } = opportunitySchema.shape;
const isoSchema = z.iso.datetime();

function* carryDecodeSlices(stored: Uint8Array): Sliced<CarryColumns> {
  if (!MAGIC.every((byte, i) => stored[i] === byte)) throw new Error("a stored carry set is not in the form rounds write");
  const size = new DataView(stored.buffer, stored.byteOffset, stored.byteLength).getUint32(4, true);
  const bytes = decompressBody(stored.subarray(8), size);
  yield;
  const headerLength = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength).getUint32(0, true);
  const header = headerSchema.parse(JSON.parse(Buffer.from(bytes.buffer, bytes.byteOffset + 4, headerLength).toString("utf8")));
  yield;
  const spots = yield* checkedList(header.spots, (row) => carrySpotLegSchema.parse(legObject(row, header.spotKeys)));
  const perps = yield* checkedList(header.perps, (row) => perpLegSchema.parse(legObject(row, header.perpKeys)));
  if (header.perpSymbols.length !== perps.length) throw new Error("a stored carry set's perpetual legs and symbols differ in number");
  const c = emptyCarryColumns(0, { spots, perps, perpSymbols: header.perpSymbols, persistences: header.persistences, texts: header.texts });
  c.count = header.count;
  let at = align8(4 + headerLength);
  // Viewed in place where the decompressed body is aligned, otherwise copied out.
  const inPlace = bytes.byteOffset % 8 === 0;
  for (const [name, type] of CARRY_ARRAYS) {
    const end = at + header.count * type.BYTES_PER_ELEMENT;
    if (end > bytes.byteLength) throw new Error("a stored carry set ends before its columns do");
    const array = inPlace ? new type(bytes.buffer as ArrayBuffer, bytes.byteOffset + at, header.count) : new type(header.count);
    if (!inPlace) new Uint8Array(array.buffer).set(bytes.subarray(at, end));
    (c as unknown as Record<string, typeof array>)[name] = array;
    at = align8(end);
  }
  yield* checkedItems(c);
  return c;
}

function* checkedList<T>(rows: readonly unknown[], check: (row: unknown) => T): Sliced<T[]> {
  const out: T[] = [];
  for (let i = 0; i < rows.length; i++) {
    if (i % CHECKED_A_SLICE === CHECKED_A_SLICE - 1) yield;
    out.push(Object.freeze(check(rows[i])));
  }
  return out;
}

/**
 * Every item's positions within the lists and numbers as the schema takes them (`apr` and `net_apr`
 * finite, the nullable ones finite or NaN for null), and each text an item uses checked once
 * against its field's schema: a loop over arrays, not 200,000 objects through zod.
 */
function* checkedItems(c: CarryColumns): Sliced<void> {
  const fail = (what: string, i: number) => new Error(`a stored carry opportunity's ${what} is not valid (item ${i})`);
  const checkedTexts = new Map<number, "time" | "reason">();
  const checkText = (position: number, kind: "time" | "reason", i: number) => {
    const seen = checkedTexts.get(position);
    if (seen === kind) return;
    const text = c.texts[position];
    const schema = kind === "time" ? isoSchema : priceSpreadUnavailableReasonSchema;
    if (seen !== undefined || text === undefined || !schema.safeParse(text).success) throw fail(kind === "time" ? "updated_at" : "basis_unavailable_reason", i);
    checkedTexts.set(position, kind);
  };
  for (let i = 0; i < c.count; i++) {
    if (i % ITEMS_A_SLICE === ITEMS_A_SLICE - 1) yield;
    if (c.spot[i]! >= c.spots.length) throw fail("spot leg", i);
    if (c.perp[i]! >= c.perps.length) throw fail("perpetual leg", i);
    if (c.type[i]! >= CARRY_TYPES.length) throw fail("type", i);
    if (c.persistence[i]! >= c.persistences.length) throw fail("persistence", i);
    if (!Number.isFinite(c.apr[i]!) || !Number.isFinite(c.net_apr[i]!)) throw fail("APR", i);
    if (infinite(c.borrow_apr[i]!) || infinite(c.borrowable[i]!) || infinite(c.basis_bps[i]!)) throw fail("figure", i);
    checkText(c.updated_at[i]!, "time", i);
    if (c.basis_reason[i] !== NO_TEXT) checkText(c.basis_reason[i]!, "reason", i);
  }
}

/** Neither finite nor NaN (a nullable figure's null). */
function infinite(value: number): boolean {
  return value === Infinity || value === -Infinity;
}
