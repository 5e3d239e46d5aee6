import { describe, expect, it } from "vitest";
import { recordTable } from "../opportunities/encoding/record-table";
import { framedLike, sectionBytes, storedColumns, storedHeader } from "@/tests/support/market/stored-set-bytes";
import { UNKNOWN_PERSISTENCE, type Persistence } from "../model/types";
import { makeSnapshot } from "@/tests/support/market/make-snapshot";
import { dailyBorrow, makeSpot } from "@/tests/support/market/make-spot";
import { decodeCarryColumns, encodeCarryColumns } from "./carry-bytes";
import { carryItemsOf, pickCarryColumns, type CarryColumns } from "./carry-columns";
import { rankCarryColumns } from "./carry-pairs";

const observedAt = makeSnapshot({ exchange: "binance" }).observedAt;
const figures: Persistence = { ...UNKNOWN_PERSISTENCE, as_of: new Date(observedAt).toISOString(), apr_median_7d: 12.5, paid_share_7d: 0.9 };

// Three perpetuals against three spot venues: lent and not, observed with the perps and an hour apart, priced and not.
const columns = rankCarryColumns(
  [
    makeSnapshot({ exchange: "bybit", fundingRate: 0.0001 }),
    makeSnapshot({ exchange: "okx", fundingRate: -0.0003, markPrice: null }),
    makeSnapshot({ exchange: "gate", fundingRate: 0.00005 }),
  ],
  [
    makeSpot({ exchange: "binance", borrow: dailyBorrow() }),
    makeSpot({ exchange: "okx", borrow: { ...dailyBorrow(), borrowable: null } }),
    makeSpot({ exchange: "bitget", takerFee: null, observedAt: new Date(observedAt - 3_600_000).toISOString() }),
  ],
  { persistence: (_long, short) => (short.exchange === "bybit" ? figures : undefined) },
);

/** `columns` with `change` made to a copy of them, stored. */
function storedWith(change: (c: CarryColumns) => void): Promise<Uint8Array> {
  const copy = pickCarryColumns(columns, Array.from({ length: columns.count }, (_, i) => i));
  change(copy);
  return encodeCarryColumns(copy);
}

describe("a carry set's stored form", () => {
  it("reads back exactly as it was written, each leg once, nulls and persistence included", async () => {
    const items = carryItemsOf(columns);
    expect(items).toHaveLength(3 * 3 + 3 * 2);
    expect(new Set(items.map((item) => item.basis_unavailable_reason))).toEqual(new Set([null, "price_missing", "legs_observed_apart"]));
    const stored = await encodeCarryColumns(columns);
    expect(stored.length).toBeLessThan(JSON.stringify(items).length / 2);
    const read = await decodeCarryColumns(stored);
    expect(read.perps).toHaveLength(3);
    expect(read.spots).toHaveLength(3);
    expect(carryItemsOf(read)).toEqual(items);
    expect(JSON.stringify(carryItemsOf(read))).toBe(JSON.stringify(items));
  });

  it("reads back thousands of perpetual legs in their order, sliced", async () => {
    const bases = Array.from({ length: 2_500 }, (_, i) => `A${i}`);
    const many = rankCarryColumns(
      bases.map((base, i) => makeSnapshot({ exchange: "bybit", base, market: `${base}/USDT:USDT`, fundingRate: 0.0001 + i * 1e-8 })),
      bases.map((base) => makeSpot({ exchange: "binance", base, market: `${base}/USDT` })),
    );
    expect(many.perps).toHaveLength(2_500);
    const read = await decodeCarryColumns(await encodeCarryColumns(many), 0);
    expect(read.perps).toEqual(many.perps);
    expect(carryItemsOf(read)).toEqual(carryItemsOf(many));
  });

  it("reads a set stored before the legs' record tables, its legs listed in the header", async () => {
    const older = await inOlderForm(await encodeCarryColumns(columns), columns);
    const read = await decodeCarryColumns(older);
    expect(read.spots).toEqual(columns.spots);
    expect(read.perps).toEqual(columns.perps);
    expect(carryItemsOf(read)).toEqual(carryItemsOf(columns));
  });

  it("refuses bytes rounds do not write, and columns that point past their lists or break the item schema", async () => {
    const stored = await encodeCarryColumns(columns);
    await expect(decodeCarryColumns(Uint8Array.from([0x46, 0x4f, 0x53, 0x34, ...stored.subarray(4)]))).rejects.toThrow(/not in the form/);
    await expect(decodeCarryColumns(await storedWith((c) => (c.perp[2] = 3)))).rejects.toThrow(/perpetual leg is not valid \(item 2\)/);
    await expect(decodeCarryColumns(await storedWith((c) => (c.type[0] = 2)))).rejects.toThrow(/type/);
    await expect(decodeCarryColumns(await storedWith((c) => (c.apr[4] = Number.NaN)))).rejects.toThrow(/APR is not valid \(item 4\)/);
    await expect(decodeCarryColumns(await storedWith((c) => (c.basis_bps[1] = Infinity)))).rejects.toThrow(/figure/);
    // A reason where a time belongs.
    await expect(decodeCarryColumns(await storedWith((c) => (c.updated_at[0] = c.basis_reason.find((p) => p !== 0xffff_ffff)!)))).rejects.toThrow(/updated_at/);
    await expect(decodeCarryColumns(await storedWith((c) => (c.spots = [{ ...c.spots[0]!, price: -1 }, ...c.spots.slice(1)])))).rejects.toThrow();
  });
});

/**
 * `stored` (the carry set `c`) as sets were stored before the legs' record tables: each leg the
 * array of its values with the fields named once, the perpetual legs' rows as JSON texts of 1,024,
 * the item arrays kept.
 */
function inOlderForm(stored: Uint8Array, c: CarryColumns): Promise<Uint8Array> {
  const { spotTable: _spots, perpTable: _perps, ...header } = storedHeader(stored);
  const legBytes = sectionBytes([...recordTable(c.spots).sections, ...recordTable(c.perps).sections]);
  const listed = (legs: readonly object[]) => {
    const keys = Object.keys(legs[0]!);
    return { keys, rows: legs.map((leg) => keys.map((key) => (leg as Record<string, unknown>)[key])) };
  };
  const [spots, perps] = [listed(c.spots), listed(c.perps)];
  const perpTexts = Array.from({ length: Math.ceil(perps.rows.length / 1_024) }, (_, k) => JSON.stringify(perps.rows.slice(k * 1_024, (k + 1) * 1_024)));
  const olderHeader = { ...header, spotKeys: spots.keys, spots: spots.rows, perpKeys: perps.keys, perps: perpTexts };
  return framedLike(stored, olderHeader, storedColumns(stored).subarray(legBytes));
}
