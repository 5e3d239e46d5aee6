import { describe, expect, it } from "vitest";
import { countingTurns } from "@/tests/support/event-loop-turns";
import { computeOpportunities, rankOpportunities } from "../rank-opportunities";
import { itemsOf } from "../opportunity-columns";
import { UNKNOWN_PERSISTENCE } from "../../model/types";
import { makeSnapshot } from "@/tests/support/market/make-snapshot";
import { framedLike, sectionBytes, storedBody, storedColumns, storedHeader } from "@/tests/support/market/stored-set-bytes";
import { type Opportunity } from "../../model/types";
import { columnsOf, type OpportunityColumns } from "./columns";
import { recordTable, type RecordTable } from "./record-table";
import { randomBytes } from "node:crypto";
import { COMPRESS_AT_ONCE_BYTES, decodeColumns, decodeColumnsInSlices, encodeColumns, framedSet, unframedSet } from "./set-bytes";

const packItems = async (items: readonly Opportunity[] | OpportunityColumns) => encodeColumns(Array.isArray(items) ? columnsOf(items) : (items as OpportunityColumns));
const unpackColumns = (stored: Uint8Array | null) => (stored && stored.length > 0 ? decodeColumns(stored) : columnsOf([]));
const unpackItems = (stored: Uint8Array | null) => itemsOf(unpackColumns(stored));

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

  it("round-trip the same whether compressed at once (a batch's patch) or on libuv's threads (a round's set)", async () => {
    const itemsOfSize = (n: number) => Array.from({ length: n }, (_, i) => ({ ...opportunities[0]!, id: `A${i}-binance-okx`, apr: opportunities[0]!.apr + i / 7 }));
    const small = itemsOfSize(200);
    const large = itemsOfSize(20_000);
    const [packedSmall, packedLarge] = [await packItems(small), await packItems(large)];
    expect(storedBody(packedSmall).length).toBeLessThanOrEqual(COMPRESS_AT_ONCE_BYTES);
    expect(storedBody(packedLarge).length).toBeGreaterThan(COMPRESS_AT_ONCE_BYTES);
    expect(unpackItems(packedSmall)).toEqual(small);
    expect(unpackItems(packedLarge)).toEqual(large);
  });

  it("round-trip large sets packed one after another and at once, each in its own body", async () => {
    const itemsOfSize = (n: number, k: number) => Array.from({ length: n }, (_, i) => ({ ...opportunities[0]!, id: `A${i}-binance-okx`, apr: k + i / 7 }));
    const [a, b, c] = [itemsOfSize(20_000, 1), itemsOfSize(12_000, 2), itemsOfSize(25_000, 3)];
    const [packedA, packedB] = await Promise.all([packItems(a), packItems(b)]);
    const packedC = await packItems(c);
    expect(storedBody(packedA).length).toBeGreaterThan(COMPRESS_AT_ONCE_BYTES);
    expect(unpackItems(packedA)).toEqual(a);
    expect(unpackItems(packedB)).toEqual(b);
    expect(unpackItems(packedC)).toEqual(c);
    // Packed again into the body a larger set left behind: the same bytes, its padding zeros too.
    expect(Buffer.from(await packItems(b)).equals(Buffer.from(packedB))).toBe(true);
  });

  it("round-trip sets of different legs packed at once and one after another, each leg table in the arrays the last one used (sectionArrays)", async () => {
    // Each set its own legs: its assets' rates, prices and open interest differ from the other's.
    const rankedSet = (assets: number, k: number) =>
      rankOpportunities(
        Array.from({ length: assets }, (_, a) =>
          ["binance", "bybit", "okx"].map((exchange, v) =>
            makeSnapshot({ exchange, base: `A${a}`, fundingRate: (k * (a + 1) * (v - 1)) / 1e5, markPrice: 10 + a + k, openInterestUsd: v === 1 ? null : a * k }),
          ),
        ).flat(),
      ).columns;
    const [large, small, other] = [rankedSet(400, 1), rankedSet(50, 2), rankedSet(300, 3)];
    const [packedLarge, packedSmall] = await Promise.all([packItems(large), packItems(small)]);
    const packedOther = await packItems(other);
    expect(unpackItems(packedLarge)).toEqual(itemsOf(large));
    expect(unpackItems(packedSmall)).toEqual(itemsOf(small));
    expect(unpackItems(packedOther)).toEqual(itemsOf(other));
    // Packed again after a larger leg table used the arrays: the same bytes.
    expect(Buffer.from(await packItems(small)).equals(Buffer.from(packedSmall))).toBe(true);
  });

  it("round-trip a large body that compresses far worse than the last of its kind, past the output buffer that one sized", async () => {
    const magic = [0x54, 0x45, 0x53, 0x54];
    const size = 4 * COMPRESS_AT_ONCE_BYTES;
    const zeros = new Uint8Array(size);
    const noise = new Uint8Array(randomBytes(size));
    for (const section of [zeros, noise, zeros, noise]) {
      const stored = await framedSet(magic, { n: 1 }, [section]);
      const read = unframedSet(stored, magic, "test set");
      expect(read.headerText).toBe('{"n":1}');
      expect(Buffer.from(read.take(Uint8Array, size)).equals(Buffer.from(section))).toBe(true);
    }
  });

  it("write each leg once however many pairs it is in, and share it again when read", async () => {
    const venues = ["binance", "bybit", "okx", "bitget", "gate"];
    const { opportunities: pairs } = computeOpportunities(venues.map((exchange, i) => makeSnapshot({ exchange, fundingRate: 0.0001 * i })));
    expect(pairs).toHaveLength(10);
    const packed = await packItems(pairs);
    const table = storedHeader(packed).legTable as RecordTable;
    expect(table.count).toBe(5);
    // Each leg as a record of a table whose fields are named once, its texts listed once.
    expect(table.fields.map((f) => f.name)).toEqual(Object.keys(pairs[0]!.long));
    expect(table.texts).toEqual(expect.arrayContaining(venues));
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
    const damaged = await inOlderForm(packed, (header) => ({ ...header, legs: (header.legs as unknown[]).slice(0, 1) }));
    expect(() => unpackItems(damaged)).toThrow(/refers to leg 1/);
  });

  it("read a leg of its fields in another order as the same leg, and a leg lacking a field not at all", async () => {
    const [first] = opportunities;
    if (!first) throw new Error("no opportunity");
    const { at_cap: atCap, ...rest } = first.short;
    const reordered = { at_cap: atCap, ...rest, market: "ETH/USDT:USDT" };
    const mixed = [first, { ...first, id: "ETH-binance-okx", symbol: "ETH", short: reordered }];
    const [, read] = unpackItems(await packItems(mixed));
    expect(read?.short).toEqual({ ...first.short, market: "ETH/USDT:USDT" });
    const { at_cap: _atCap, ...lackingLeg } = reordered;
    await expect(packItems([first, { ...first, id: "ETH-binance-okx", symbol: "ETH", short: lackingLeg as typeof reordered }]).then(unpackItems)).rejects.toThrow();
  });

  it("read a set stored before the legs' record table: each leg its values in the fields' order, or an object; refuse a leg of the wrong length or lacking a field", async () => {
    const [first] = opportunities;
    if (!first) throw new Error("no opportunity");
    const mixed = [first, { ...first, id: "ETH-binance-okx", symbol: "ETH", short: { ...first.short, market: "ETH/USDT:USDT" } }];
    const packed = await packItems(mixed);
    const older = await inOlderForm(packed, (header) => ({ ...header, legs: [...(header.legs as unknown[]).slice(0, 2), legObjectOf((header.legs as unknown[][])[2]!, header.legKeys as string[])] }));
    expect(unpackItems(older)).toEqual(mixed);
    const lacking = await inOlderForm(packed, (header) => {
      const { at_cap: _atCap, ...leg } = legObjectOf((header.legs as unknown[][])[2]!, header.legKeys as string[]);
      return { ...header, legs: [...(header.legs as unknown[]).slice(0, 2), leg] };
    });
    expect(() => unpackItems(lacking)).toThrow();
    const damaged = await inOlderForm(packed, (header) => ({ ...header, legs: [(header.legs as unknown[][])[0]!.slice(1), ...(header.legs as unknown[]).slice(1)] }));
    expect(() => unpackItems(damaged)).toThrow(/does not match its leg fields/);
  });

  it("store each leg's transport, and read a set stored before legs carried it as polled", async () => {
    const { opportunities: streamed } = computeOpportunities([
      makeSnapshot({ exchange: "binance", fundingRate: 0.0001, transport: "stream" }),
      makeSnapshot({ exchange: "okx", fundingRate: -0.0002 }),
    ]);
    const packed = await packItems(streamed);
    expect((storedHeader(packed).legTable as RecordTable).fields.map((f) => f.name)).toContain("transport");
    const read = unpackItems(packed);
    expect(read).toEqual(streamed);
    expect(read.map((o) => [o.long.exchange, o.long.transport, o.short.exchange, o.short.transport])).toEqual([["okx", "poll", "binance", "stream"]]);
    const older = await inOlderForm(packed, (h) => {
      const at = (h.legKeys as string[]).indexOf("transport");
      return {
        ...h,
        legKeys: (h.legKeys as string[]).filter((_, i) => i !== at),
        legs: (h.legs as unknown[][]).map((leg) => leg.filter((_, i) => i !== at)),
      };
    });
    const [old] = unpackItems(older);
    expect(old?.long.transport).toBe("poll");
    expect(old?.short.transport).toBe("poll");
    expect({ ...old, long: { ...old!.long, transport: "poll" }, short: { ...old!.short, transport: "stream" } }).toEqual(streamed[0]);
  });

  it("refuse a packed set whose body is not as long as it says", async () => {
    const packed = Buffer.from(await packItems(opportunities));
    const size = packed.readUInt32LE(4);
    packed.writeUInt32LE(size + 8, 4);
    expect(() => unpackItems(packed)).toThrow(/not as long as it says/);
    packed.writeUInt32LE(size - 8, 4);
    expect(() => unpackItems(packed)).toThrow(/not as long as it says/);
  });

  it("decode in slices, decompressed apart, exactly as at once, and refuse a body of the wrong length alike", async () => {
    const many = Array.from({ length: 5_000 }, (_, i) => ({ ...opportunities[0]!, id: `A${i}-binance-okx`, apr: opportunities[0]!.apr + i / 3 }));
    const packed = Buffer.from(await packItems(many));
    const { result, turns } = await countingTurns(() => decodeColumnsInSlices(packed, 0));
    expect(turns).toBeGreaterThan(3);
    expect(itemsOf(result)).toEqual(itemsOf(decodeColumns(packed)));
    expect(itemsOf(result)).toEqual(many);
    const size = packed.readUInt32LE(4);
    for (const wrong of [size + 8, size - 8]) {
      packed.writeUInt32LE(wrong, 4);
      await expect(decodeColumnsInSlices(packed)).rejects.toThrow(/not as long as it says/);
    }
  });

  it("read nothing as an empty set, and refuse bytes in any other form than the one rounds write", async () => {
    expect(unpackItems(null)).toEqual([]);
    expect(unpackItems(new Uint8Array())).toEqual([]);
    expect(() => unpackItems(new TextEncoder().encode(JSON.stringify(opportunities)))).toThrow(/not in the form rounds write/);
    const packed = await packItems(opportunities);
    const damaged = await inOlderForm(packed, (header) => ({ ...header, legs: [{ exchange: "x" }, ...(header.legs as unknown[]).slice(1)] }));
    expect(() => unpackItems(damaged)).toThrow();
    const lost = await withHeader(packed, ({ legTable: _legTable, ...header }) => header);
    expect(() => unpackItems(lost)).toThrow(/lists no legs/);
  });
});

/**
 * The packed set as sets were stored before the legs' record table, `edit`ed: its legs listed in
 * the header (each the array of its values, the fields named once), its item columns kept.
 */
function inOlderForm(packed: Uint8Array, edit: (header: Record<string, unknown>) => Record<string, unknown> = (header) => header): Promise<Uint8Array> {
  const { legTable: _legTable, ...header } = storedHeader(packed);
  const { legs } = decodeColumns(packed);
  const legBytes = sectionBytes(recordTable(legs).sections);
  const legKeys = Object.keys(legs[0]!);
  const listed = { ...header, legKeys, legs: legs.map((leg) => legKeys.map((key) => leg[key as keyof typeof leg])) };
  return withHeader(packed, () => edit(listed), storedColumns(packed).subarray(legBytes));
}

/** A leg listed as its values in `legKeys` order, as an object. */
function legObjectOf(values: readonly unknown[], legKeys: readonly string[]): Record<string, unknown> {
  return Object.fromEntries(legKeys.map((key, i) => [key, values[i]]));
}

/** The packed set with its header rewritten and its columns kept (or replaced). */
function withHeader(packed: Uint8Array, edit: (header: Record<string, unknown>) => Record<string, unknown>, columns = storedColumns(packed)): Promise<Uint8Array> {
  return framedLike(packed, edit(storedHeader(packed)), columns);
}
