import { gunzipSync, gzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { computeOpportunities } from "../opportunities/rank-opportunities";
import { UNKNOWN_PERSISTENCE } from "../model/types";
import { marketKey } from "../model/market-average";
import { makeSnapshot } from "@/tests/support/market/make-snapshot";
import type { PairRecord } from "./pair-persistence";
import { crossVenuePairs, PersistenceSet, withPersistence, type MarketRef } from "./persistence-set";

const THROUGH = Date.UTC(2026, 10, 21, 16);
const binance = { exchange: "binance", market: "BTC/USDT:USDT" };
const okx = { exchange: "okx", market: "BTC/USDT:USDT" };
const record = (overrides: Partial<PairRecord> = {}): PairRecord => ({
  since: THROUGH - 5 * 3_600_000,
  sinceSign: 1,
  median7: 12.5,
  median30: 8,
  stddev7: 3.25,
  secondPaidMore: 150,
  firstPaidMore: 10,
  settledHours: 168,
  ...overrides,
});
/** The record's first market is binance (its key sorts first). */
const set = () => PersistenceSet.of(THROUGH, [[binance, okx, record()]]);

describe("crossVenuePairs", () => {
  it("pairs markets of different venues once each, first the one whose key sorts first, never two of one venue", () => {
    const markets = [okx, binance, { exchange: "binance", market: "BTC/USDC:USDC" }];
    const pairs = [...crossVenuePairs(markets)].map(([first, second]) => `${first.exchange} ${first.market} / ${second.exchange} ${second.market}`);
    expect(pairs).toEqual(["binance BTC/USDC:USDC / okx BTC/USDT:USDT", "binance BTC/USDT:USDT / okx BTC/USDT:USDT"]);
  });
});

describe("a persistence set", () => {
  it("finds a pair's record from either market, saying which is first", () => {
    expect(set().find(binance, okx)).toEqual({ record: record(), aIsFirst: true });
    expect(set().find(okx, binance)).toEqual({ record: record(), aIsFirst: false });
    expect(set().find(binance, { exchange: "bybit", market: "BTC/USDT:USDT" })).toBeUndefined();
  });

  it("numbers a market alike by its venue and symbol or by its marketKey, and none it does not hold", () => {
    const held = set();
    const bybit = { exchange: "bybit", market: "BTC/USDT:USDT" };
    expect([held.marketNumber(binance), held.marketNumber(okx)].sort()).toEqual([0, 1]);
    for (const m of [binance, okx, bybit]) expect(held.marketNumber(m, marketKey(m.exchange, m.market))).toBe(held.marketNumber(m));
    expect(held.marketNumber(bybit)).toBeUndefined();
  });

  it("prepares its slots without making an object per pair, and still answers persistenceOf", () => {
    const prepared = set().prepare();
    expect((prepared as unknown as { oriented: unknown }).oriented).toBeUndefined();
    expect(Array.from(prepared.slots().figures).slice(0, 4)).toEqual([12.5, 8, Math.round((150 / 168) * 1e6) / 1e6, 3.25]);
    expect(prepared.persistenceOf(okx, binance)?.apr_median_7d).toBe(-12.5);
  });

  it("round-trips through its packed form, null figures included", async () => {
    const pairs: [typeof binance, typeof okx, PairRecord][] = [
      [binance, okx, record()],
      [{ exchange: "bybit", market: "ETH/USDT:USDT" }, { exchange: "okx", market: "ETH/USDT:USDT" }, record({ since: null, sinceSign: 0, median7: null, median30: null, stddev7: null, settledHours: 0, secondPaidMore: 0, firstPaidMore: 0 })],
      [binance, { exchange: "hyperliquid", market: "BTC/USDC:USDC" }, record({ sinceSign: -1, median7: -0.5 })],
    ];
    const original = PersistenceSet.of(THROUGH, pairs);
    const read = await PersistenceSet.unpack(THROUGH, await original.pack());
    expect(read.size).toBe(3);
    expect([0, 1, 2].map((row) => read.pairAt(row))).toEqual(pairs.map(([first, second, r]) => ({ first, second, record: r })));
    expect((await PersistenceSet.unpack(THROUGH, await PersistenceSet.of(THROUGH, []).pack())).size).toBe(0);
  });

  it("refuses a blob that does not add up rather than attach it", async () => {
    const bytes = gunzipSync(await set().pack());
    await expect(PersistenceSet.unpack(THROUGH, gzipSync(bytes.subarray(0, bytes.length - 3)))).rejects.toThrow(/truncated/);
    const header = bytes.readUInt32LE(0);
    const otherOrder = Buffer.from(bytes);
    otherOrder.write(JSON.stringify({ v: 1, endianness: "XX" }).padEnd(header), 4);
    await expect(PersistenceSet.unpack(THROUGH, gzipSync(otherOrder))).rejects.toThrow(/header/);
  });
});

describe("withPersistence", () => {
  // Binance 0.01 %/8h is the long leg, OKX 0.03 %/8h the short one; binance is the record's first market.
  const { opportunities } = computeOpportunities([
    makeSnapshot({ exchange: "binance", fundingRate: 0.0001 }),
    makeSnapshot({ exchange: "okx", fundingRate: 0.0003 }),
  ]);

  it("attaches the pair's record turned to the opportunity's long and short legs", () => {
    expect(withPersistence(opportunities, set())[0]?.persistence).toEqual({
      as_of: "2026-11-21T16:00:00.000Z",
      positive_since: "2026-11-21T11:00:00.000Z",
      apr_median_7d: 12.5,
      apr_median_30d: 8,
      paid_share_7d: 0.892857, // 150 / 168
      apr_stddev_7d: 3.25,
    });
    // With OKX the long leg, the same record reads the other way round: the run was binance-long's.
    const okxLong = computeOpportunities([
      makeSnapshot({ exchange: "binance", fundingRate: 0.0003 }),
      makeSnapshot({ exchange: "okx", fundingRate: 0.0001 }),
    ]).opportunities;
    expect(okxLong[0]?.id).toBe("BTC-okx-binance");
    expect(withPersistence(okxLong, set())[0]?.persistence).toEqual({
      as_of: "2026-11-21T16:00:00.000Z",
      positive_since: null,
      apr_median_7d: -12.5,
      apr_median_30d: -8,
      paid_share_7d: 0.059524, // 10 / 168
      apr_stddev_7d: 3.25,
    });
  });

  it("is what computeOpportunities attaches when asked while it forms the pairs", () => {
    const own = computeOpportunities(
      [makeSnapshot({ exchange: "binance", fundingRate: 0.0001 }), makeSnapshot({ exchange: "okx", fundingRate: 0.0003 })],
      { persistence: set() },
    ).opportunities;
    expect(own).toEqual(withPersistence(opportunities, set()));
    expect(opportunities[0]?.persistence).toEqual(UNKNOWN_PERSISTENCE); // withPersistence copied
  });

  it("gives a ranking of many venues each pair's figures, either way round, as persistenceOf does", () => {
    const venues = ["binance", "bybit", "gate", "okx", "hyperliquid"];
    const markets = ["BTC", "ETH"].flatMap((base) => venues.map((exchange) => ({ exchange, market: `${base}/USDT:USDT`, base })));
    // Every other pair held, with figures of its own and a positive_since on one side or the other.
    const pairs: [MarketRef, MarketRef, PairRecord][] = [];
    for (const base of ["BTC", "ETH"])
      for (const [first, second] of crossVenuePairs(markets.filter((m) => m.base === base)))
        if (pairs.length % 2 === 0 || base === "ETH") pairs.push([first, second, record({ median7: pairs.length, sinceSign: pairs.length % 3 === 0 ? -1 : 1, since: THROUGH - pairs.length * 3_600_000 })]);
        else pairs.push([first, { exchange: "nowhere", market: "BTC/USDT:USDT" }, record()]);
    const held = PersistenceSet.of(THROUGH, pairs);
    const snapshots = markets.map((m, i) => makeSnapshot({ exchange: m.exchange, market: m.market, base: m.base, fundingRate: 0.0001 * ((i * 7) % 5) }));
    const ranked = computeOpportunities(snapshots, { persistence: held }).opportunities;
    expect(ranked).toHaveLength(20);
    expect(ranked.filter((o) => o.persistence.as_of !== null).length).toBeGreaterThan(5);
    expect(ranked.some((o) => o.persistence.positive_since !== null)).toBe(true);
    expect(ranked).toEqual(withPersistence(computeOpportunities(snapshots).opportunities, held));
  });

  it("finds a pair either way round whichever of its markets has more partners (held spot has every perpetual)", () => {
    const held = { exchange: "spot", market: "held" };
    const perps = ["binance", "okx", "bybit"].map((exchange) => ({ exchange, market: "BTC/USDT:USDT" }));
    const withHeld = PersistenceSet.of(THROUGH, [
      ...perps.map((perp, i): [MarketRef, MarketRef, PairRecord] => [perp, held, record({ median7: 10 + i })]),
      [perps[0]!, perps[1]!, record({ median7: 3 })],
    ]);
    for (const [i, perp] of perps.entries()) {
      // The record's first market is the perpetual: long it, its median as recorded; long held spot, turned.
      expect(withHeld.persistenceOf(perp, held)?.apr_median_7d).toBe(10 + i);
      expect(withHeld.persistenceOf(held, perp)?.apr_median_7d).toBe(-(10 + i));
    }
    expect(withHeld.persistenceOf(perps[0]!, perps[1]!)?.apr_median_7d).toBe(3);
    expect(withHeld.persistenceOf(perps[1]!, perps[0]!)?.apr_median_7d).toBe(-3);
    expect(withHeld.persistenceOf(perps[1]!, perps[2]!)).toBeUndefined();
  });

  it("leaves every figure unknown for a pair the set does not hold, and without a set", () => {
    expect(withPersistence(opportunities, PersistenceSet.of(THROUGH, []))[0]?.persistence).toEqual(UNKNOWN_PERSISTENCE);
    expect(withPersistence(opportunities, null)[0]?.persistence).toEqual(UNKNOWN_PERSISTENCE);
  });
});
