import { brotliCompressSync, brotliDecompressSync, gzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { computeOpportunities, rankOpportunities } from "../../apr";
import { itemsOf } from "./columns";
import { packItems, unpackColumns, unpackItems } from "./pack-set";
import { UNKNOWN_PERSISTENCE } from "../../types";
import { makeSnapshot } from "@/tests/support/market/make-snapshot";

const { opportunities } = computeOpportunities([
  makeSnapshot({ exchange: "binance", fundingRate: 0.0001, fundingIntervalHours: 8, markPrice: 100 }),
  makeSnapshot({ exchange: "okx", market: "BTC/USDT:USDT", fundingRate: -0.0002, fundingIntervalHours: 4, markPrice: 100.5 }),
]);

describe("a published set's stored items", () => {
  it("round-trip through the packed form exactly, much smaller than the JSON", async () => {
    const many = Array.from({ length: 500 }, (_, i) => ({ ...opportunities[0]!, id: `A${i}-binance-okx`, apr: opportunities[0]!.apr + i / 3 }));
    const packed = await packItems(many);
    expect(packed.length).toBeLessThan(JSON.stringify(many).length / 5);
    const read = unpackItems(packed);
    expect(read).toEqual(many);
    expect(read.map((o) => o.apr)).toEqual(many.map((o) => o.apr));
  });

  it("write each leg once however many pairs it is in, and share it again when read", async () => {
    const venues = ["binance", "bybit", "okx", "bitget", "gate"];
    const { opportunities: pairs } = computeOpportunities(venues.map((exchange, i) => makeSnapshot({ exchange, fundingRate: 0.0001 * i })));
    expect(pairs).toHaveLength(10);
    const packed = await packItems(pairs);
    const header = storedHeader(packed);
    expect(header.legs).toHaveLength(5);
    // Each leg as its values, in the order of the fields named once.
    expect(header.legKeys).toEqual(Object.keys(pairs[0]!.long));
    expect((header.legs as unknown[][]).map((leg) => leg[0]).sort()).toEqual([...venues].sort());
    const read = unpackItems(packed);
    expect(read).toEqual(pairs);
    expect(read.map((o) => Object.keys(o))).toEqual(pairs.map((o) => Object.keys(o)));
    const binanceLegs = read.flatMap((o) => [o.long, o.short]).filter((leg) => leg.exchange === "binance");
    expect(binanceLegs).toHaveLength(4);
    expect(new Set(binanceLegs).size).toBe(1);
  });

  it("store a ranked set's standard ids not at all, and read them back the same", async () => {
    const venues = ["binance", "bybit", "okx"];
    const snapshots = ["BTC", "ETH"].flatMap((base) => venues.map((exchange, i) => makeSnapshot({ exchange, base, market: `${base}/USDT:USDT`, fundingRate: 0.0001 * i })));
    const { columns } = rankOpportunities(snapshots);
    expect(columns.ids).toBeNull();
    const packed = await packItems(columns);
    expect(storedHeader(packed).keyed).toEqual({});
    const items = computeOpportunities(snapshots).opportunities;
    expect(unpackItems(packed)).toEqual(items);
    // Read back as columns (what a restarted round diffs its events against): ids still derived.
    const read = unpackColumns(packed);
    expect(read.ids).toBeNull();
    expect(itemsOf(read)).toEqual(items);
    expect(items.map((o) => o.id)).toContain("ETH-binance-okx");
    // Items with ids of their own keep them.
    const renamed = items.map((o, i) => ({ ...o, id: `own-${i}` }));
    expect(unpackItems(await packItems(renamed)).map((o) => o.id)).toEqual(renamed.map((o) => o.id));
  });

  it("keep an absent field absent, a null null, and every figure of a known persistence", async () => {
    const [first] = opportunities;
    if (!first) throw new Error("no opportunity");
    const known = { as_of: "2026-11-24T10:00:00.000Z", positive_since: "2026-11-20T03:00:00.000Z", apr_median_7d: 12.5, apr_median_30d: -3.25, paid_share_7d: 0.8, apr_stddev_7d: 4.125 };
    const items = [
      { ...first, apr_1d_avg: 1.5, apr_7d_avg: null, persistence: known },
      { ...first, id: "ETH-binance-okx", symbol: "ETH", open_interest_usd: null, persistence: UNKNOWN_PERSISTENCE },
    ];
    const [withAverages, without] = unpackItems(await packItems(items));
    expect(withAverages).toEqual(items[0]);
    expect(without).toEqual(items[1]);
    expect(without).not.toHaveProperty("apr_1d_avg");
    expect(withAverages).toHaveProperty("apr_7d_avg", null);
  });

  it("refuse to pack a number JSON cannot carry", async () => {
    await expect(packItems([{ ...opportunities[0]!, apr: Number.NaN }])).rejects.toThrow(/not finite/);
  });

  it("refuse a packed set whose item names a leg it does not have", async () => {
    const packed = await packItems(opportunities);
    const damaged = withHeader(packed, (header) => ({ ...header, legs: (header.legs as unknown[]).slice(0, 1) }));
    expect(() => unpackItems(damaged)).toThrow(/refers to leg 1/);
  });

  it("write a leg of other fields as an object, read it as what it is, and refuse a leg of the wrong length", async () => {
    const [first] = opportunities;
    if (!first) throw new Error("no opportunity");
    const { at_cap: _atCap, ...olderShort } = first.short;
    const mixed = [first, { ...first, id: "ETH-binance-okx", symbol: "ETH", short: { ...olderShort, market: "ETH/USDT:USDT" } as typeof first.short }];
    const packed = await packItems(mixed);
    const legs = storedHeader(packed).legs as unknown[];
    expect(legs.map((leg) => Array.isArray(leg))).toEqual([true, true, false]);
    const [, read] = unpackItems(packed);
    expect(read?.short).toEqual({ ...first.short, market: "ETH/USDT:USDT", at_cap: false });
    const damaged = withHeader(packed, (header) => ({ ...header, legs: [(header.legs as unknown[][])[0]!.slice(1), ...(header.legs as unknown[]).slice(1)] }));
    expect(() => unpackItems(damaged)).toThrow(/does not match its leg fields/);
  });

  it("refuse a packed set whose body is not as long as it says", async () => {
    const packed = Buffer.from(await packItems(opportunities));
    const size = packed.readUInt32LE(4);
    packed.writeUInt32LE(size + 8, 4);
    expect(() => unpackItems(packed)).toThrow(/not as long as it says/);
    packed.writeUInt32LE(size - 8, 4);
    expect(() => unpackItems(packed)).toThrow(/not as long as it says/);
  });

  it("read a set stored in columns uncompressed (format 3), as rounds stored it before", async () => {
    const venues = ["binance", "bybit", "okx"];
    const snapshots = ["BTC", "ETH"].flatMap((base) => venues.map((exchange, i) => makeSnapshot({ exchange, base, market: `${base}/USDT:USDT`, fundingRate: 0.0001 * i })));
    const { columns } = rankOpportunities(snapshots);
    const packed = await packItems(columns);
    const older = asFormat3(packed);
    expect(Buffer.from(older.subarray(0, 4)).toString("latin1")).toBe("FOS3");
    expect(unpackItems(older)).toEqual(unpackItems(packed));
    expect(itemsOf(unpackColumns(older))).toEqual(computeOpportunities(snapshots).opportunities);
    const damaged = asFormat3(withHeader(packed, (header) => ({ ...header, legs: (header.legs as unknown[]).slice(0, 1) })));
    expect(() => unpackItems(damaged)).toThrow(/refers to leg/);
  });

  it("read a set published in the earlier JSON form with each leg once (format 2)", () => {
    const [first] = opportunities;
    if (!first) throw new Error("no opportunity");
    const keys = Object.keys(first);
    const row = keys.map((key) => (key === "long" ? 0 : key === "short" ? 1 : first[key as keyof typeof first]));
    const stored = gzipSync(JSON.stringify({ format: 2, keys, legs: [first.long, first.short], rows: [row] }));
    expect(unpackItems(stored)).toEqual([first]);
    row[keys.indexOf("short")] = 7;
    expect(() => unpackItems(gzipSync(JSON.stringify({ format: 2, keys, legs: [first.long, first.short], rows: [row] })))).toThrow(/leg 7/);
  });

  it("read the plain JSON the migration carried over, and nothing as an empty set", () => {
    expect(unpackItems(new TextEncoder().encode(JSON.stringify(opportunities)))).toEqual(opportunities);
    expect(unpackItems(null)).toEqual([]);
  });

  it("read a set published before legs carried their time with no spread, for want of the legs' times", () => {
    const [current] = opportunities;
    if (!current) throw new Error("no opportunity");
    const { price_spread_unavailable_reason: _reason, ...older } = current;
    const { observed_at: _long, ...olderLong } = current.long;
    const { observed_at: _short, ...olderShort } = current.short;
    expect(current.price_spread_bps).not.toBeNull();
    const unpriced = { ...older, id: "ETH-binance-okx", long: { ...olderLong, mark_price: null }, short: olderShort, price_spread_bps: null };
    const stored = new TextEncoder().encode(JSON.stringify([{ ...older, long: olderLong, short: olderShort }, unpriced]));
    const [read, readUnpriced] = unpackItems(stored);
    expect(read).toEqual({
      ...current,
      long: { ...current.long, observed_at: null },
      short: { ...current.short, observed_at: null },
      price_spread_bps: null,
      price_spread_unavailable_reason: "observation_time_unknown",
    });
    // Fields in the documented order, the reason next to the spread, as a fresh set serialises them.
    expect(Object.keys(read ?? {})).toEqual(Object.keys(current));
    expect(readUnpriced).toMatchObject({ price_spread_bps: null, price_spread_unavailable_reason: "price_missing" });
  });

  it("read a set published before legs carried their interval source, forecast, settlement and bounds, keeping its spread", () => {
    const [current] = opportunities;
    if (!current) throw new Error("no opportunity");
    const older = (leg: typeof current.long) => {
      const { funding_interval_source: _s, funding_rate_per_hour: _h, predicted_funding_rate: _p, interval_changed_at: _i, ...rest } = leg;
      const { last_settled_rate: _r, last_settled_at: _a, rate_cap: _c, rate_floor: _f, at_cap: _t, ...kept } = rest;
      return kept;
    };
    const [read] = unpackItems(new TextEncoder().encode(JSON.stringify([{ ...current, long: older(current.long), short: older(current.short) }])));
    const unknown = { funding_interval_source: null, predicted_funding_rate: null, last_settled_rate: null, last_settled_at: null, rate_cap: null, rate_floor: null, at_cap: false, interval_changed_at: null };
    expect(read).toEqual({
      ...current,
      long: { ...current.long, ...unknown },
      short: { ...current.short, ...unknown },
    });
    expect(read?.price_spread_bps).toBe(current.price_spread_bps);
    expect(Object.keys(read?.long ?? {})).toEqual(Object.keys(current.long));
  });

  it("read a set published before items carried persistence as knowing none of it", () => {
    const [current] = opportunities;
    if (!current) throw new Error("no opportunity");
    const { persistence: _persistence, ...older } = current;
    const [read] = unpackItems(new TextEncoder().encode(JSON.stringify([older])));
    expect(read).toEqual({ ...current, persistence: UNKNOWN_PERSISTENCE });
    // Older still: no leg times and no persistence, both read as unknown in one go.
    const { observed_at: _long, ...olderLong } = current.long;
    const [oldest] = unpackItems(new TextEncoder().encode(JSON.stringify([{ ...older, long: olderLong }])));
    expect(oldest).toMatchObject({ persistence: UNKNOWN_PERSISTENCE, price_spread_unavailable_reason: "observation_time_unknown" });
  });

  it("refuse items that are not opportunities rather than serve them", () => {
    expect(() => unpackItems(new TextEncoder().encode('[{"id": "x"}]'))).toThrow();
  });
});

/** A packed set's body (opportunity-set-columns.ts: "FOS4", u32 body length, the body in brotli). */
function storedBody(packed: Uint8Array): Buffer {
  return brotliDecompressSync(packed.subarray(8));
}

/** The header of a packed set's body (u32 length, JSON). */
function storedHeader(packed: Uint8Array): Record<string, unknown> {
  const body = storedBody(packed);
  return JSON.parse(body.subarray(4, 4 + body.readUInt32LE(0)).toString("utf8")) as Record<string, unknown>;
}

/** The columns of a packed set's body, after its header and padding. */
function storedColumns(packed: Uint8Array): Buffer {
  const body = storedBody(packed);
  return body.subarray(align8(4 + body.readUInt32LE(0)));
}

/** The packed set with its header rewritten and its columns kept. */
function withHeader(packed: Uint8Array, edit: (header: Record<string, unknown>) => Record<string, unknown>): Uint8Array {
  const header = Buffer.from(JSON.stringify(edit(storedHeader(packed))));
  const columns = storedColumns(packed);
  const start = align8(4 + header.length);
  const body = Buffer.alloc(start + columns.length);
  body.writeUInt32LE(header.length, 0);
  header.copy(body, 4);
  columns.copy(body, start);
  const compressed = brotliCompressSync(body);
  const out = Buffer.alloc(8 + compressed.length);
  out.set(packed.subarray(0, 4));
  out.writeUInt32LE(body.length, 4);
  compressed.copy(out, 8);
  return out;
}

/** The same set as rounds stored it before format 4: "FOS3", u32 length, the header gzipped, the columns as they are. */
function asFormat3(packed: Uint8Array): Uint8Array {
  // Its legs were objects: the fields named in each.
  const { legKeys, legs, ...rest } = storedHeader(packed) as { legKeys: string[]; legs: unknown[][] };
  const objects = legs.map((leg) => Object.fromEntries(legKeys.map((key, i) => [key, leg[i]])));
  const header = gzipSync(JSON.stringify({ ...rest, legs: objects }));
  const columns = storedColumns(packed);
  const start = align8(8 + header.length);
  const out = Buffer.alloc(start + columns.length);
  out.write("FOS3", 0, "latin1");
  out.writeUInt32LE(header.length, 4);
  header.copy(out, 8);
  columns.copy(out, start);
  return out;
}

function align8(offset: number): number {
  return Math.ceil(offset / 8) * 8;
}
