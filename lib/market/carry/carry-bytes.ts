import { z } from "zod";
import { runInSlices, type Sliced } from "@/lib/time-slices";
import { framedSet, legObject, sectionArrays, unframedSet } from "../opportunities/encoding/set-bytes";
import { readRecordTable, recordTable, recordTableSchema } from "../opportunities/encoding/record-table";
import { priceSpreadUnavailableReasonSchema } from "../model/price-spread";
import { opportunitySchema, persistenceSchema, type OpportunityLeg } from "../model/types";
import { CARRY_ARRAYS, emptyCarryColumns, NO_TEXT, type CarryColumns } from "./carry-columns";
import { CARRY_TYPES, carrySpotLegSchema } from "./carry-opportunity";

/**
 * A carry set's stored form, framed and compressed as the perp set's ("FOC1", `framedSet` in
 * ../opportunities/encoding/set-bytes.ts): a header JSON, then the spot legs' and the perpetual
 * legs' columns (record tables, ../opportunities/encoding/record-table.ts), then each of CARRY_ARRAYS.
 *
 * The header holds the lists (the legs' tables, the perpetual legs' symbols, persistence objects,
 * texts); the arrays are the columns' bytes as they are, so every number comes back bit for bit
 * and a set reads back exactly as it was written. A reader checks each listed leg, persistence and
 * text against the item schema's part for it, and each item's positions and numbers with a loop
 * over the arrays, never an item as an object. The set is rebuilt every round, so only the form
 * rounds write is read, and the one before it (the legs listed in the header).
 */
const MAGIC = [0x46, 0x4f, 0x43, 0x31]; // "FOC1"

const headerSchema = z.object({
  count: z.number().int().nonnegative(),
  spotTable: recordTableSchema.optional(),
  perpTable: recordTableSchema.optional(),
  /**
   * How sets stored before the record tables held their legs, still read: each leg as the array of
   * its values with the fields named once, the perpetual legs' rows as JSON texts of 1,024 legs each.
   */
  spotKeys: z.array(z.string()).optional(),
  spots: z.array(z.unknown()).optional(),
  perpKeys: z.array(z.string()).optional(),
  perps: z.array(z.string()).optional(),
  perpSymbols: z.array(z.string()),
  persistences: z.array(persistenceSchema),
  texts: z.array(z.string()),
});
type Header = z.infer<typeof headerSchema>;

/**
 * The stored bytes of a carry set: the header and the body written on the calling thread, the body
 * compressed on libuv's.
 */
export function encodeCarryColumns(c: CarryColumns): Promise<Uint8Array<ArrayBuffer>> {
  const take = sectionArrays();
  const spots = recordTable(c.spots, take);
  const perps = recordTable(c.perps, take);
  const header: Header = {
    count: c.count,
    spotTable: spots.table,
    perpTable: perps.table,
    perpSymbols: [...c.perpSymbols],
    persistences: [...c.persistences],
    texts: [...c.texts],
  };
  return framedSet(MAGIC, header, [...spots.sections, ...perps.sections, ...CARRY_ARRAYS.map(([name]) => c[name])]);
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
  const { headerText, take } = unframedSet(stored, MAGIC, "carry set");
  yield;
  const header = headerSchema.parse(JSON.parse(headerText));
  yield;
  const spots = yield* checkedList(header.spotTable ? readRecordTable(header.spotTable, take) : olderLegs(header.spots, header.spotKeys), (row) => carrySpotLegSchema.parse(row));
  yield;
  const perps: OpportunityLeg[] = header.perpTable
    ? yield* checkedList(readRecordTable(header.perpTable, take), (row) => perpLegSchema.parse(row))
    : yield* olderPerpLegs(header);
  if (header.perpSymbols.length !== perps.length) throw new Error("a stored carry set's perpetual legs and symbols differ in number");
  const c = emptyCarryColumns(0, { spots, perps, perpSymbols: header.perpSymbols, persistences: header.persistences, texts: header.texts });
  c.count = header.count;
  for (const [name, type] of CARRY_ARRAYS) (c as unknown as Record<string, unknown>)[name] = take(type as never, header.count);
  yield* checkedItems(c);
  return c;
}

/** Legs as sets stored before the record tables listed them: each an array of values in `keys` order, or an object. */
function olderLegs(rows: readonly unknown[] | undefined, keys: readonly string[] | undefined): unknown[] {
  if (!rows || !keys) throw new Error("a stored carry set lists no legs");
  return rows.map((row) => legObject(row, keys));
}

/** The perpetual legs as sets stored before the record tables listed them, each JSON text of them parsed in its own slice. */
function* olderPerpLegs(header: Header): Sliced<OpportunityLeg[]> {
  if (!header.perps) throw new Error("a stored carry set lists no perpetual legs");
  const perps: OpportunityLeg[] = [];
  for (const text of header.perps) {
    const rows: unknown = JSON.parse(text);
    if (!Array.isArray(rows)) throw new Error("a stored carry set's perpetual legs are not a list");
    perps.push(...(yield* checkedList(olderLegs(rows, header.perpKeys), (row) => perpLegSchema.parse(row))));
  }
  return perps;
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
