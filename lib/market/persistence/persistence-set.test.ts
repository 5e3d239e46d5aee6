import { describe, expect, it } from "vitest";
import { computeOpportunities } from "../apr";
import { UNKNOWN_PERSISTENCE } from "../types";
import { makeSnapshot } from "@/tests/support/market/make-snapshot";
import type { PairRecord } from "./pair-persistence";
import { attachPersistence, crossVenuePairs, packPersistence, pairKey, unpackPersistence, withPersistence, type PersistenceSet } from "./persistence-set";

const THROUGH = Date.UTC(2026, 10, 21, 16);
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

describe("pairKey", () => {
  it("is one key for both orders of a pair, saying which market comes first", () => {
    const ab = pairKey("binance", "BTC/USDT:USDT", "okx", "BTC/USDT:USDT");
    const ba = pairKey("okx", "BTC/USDT:USDT", "binance", "BTC/USDT:USDT");
    expect(ab.key).toBe(ba.key);
    expect([ab.firstIsA, ba.firstIsA]).toEqual([true, false]);
  });
});

describe("crossVenuePairs", () => {
  it("pairs markets of different venues once each, in key order, never two of one venue", () => {
    const markets = [
      { exchange: "okx", market: "BTC/USDT:USDT" },
      { exchange: "binance", market: "BTC/USDT:USDT" },
      { exchange: "binance", market: "BTC/USDC:USDC" },
    ];
    const pairs = [...crossVenuePairs(markets)].map(([key, first, second]) => [key, `${first.exchange} ${first.market}`, `${second.exchange} ${second.market}`]);
    expect(pairs).toEqual([
      [pairKey("binance", "BTC/USDC:USDC", "okx", "BTC/USDT:USDT").key, "binance BTC/USDC:USDC", "okx BTC/USDT:USDT"],
      [pairKey("binance", "BTC/USDT:USDT", "okx", "BTC/USDT:USDT").key, "binance BTC/USDT:USDT", "okx BTC/USDT:USDT"],
    ]);
  });
});

describe("withPersistence", () => {
  // Binance 0.01 %/8h is the long leg, OKX 0.03 %/8h the short one; binance's key sorts first.
  const { opportunities } = computeOpportunities([
    makeSnapshot({ exchange: "binance", fundingRate: 0.0001 }),
    makeSnapshot({ exchange: "okx", fundingRate: 0.0003 }),
  ]);
  const { key } = pairKey("binance", "BTC/USDT:USDT", "okx", "BTC/USDT:USDT");

  it("attaches the pair's record turned to the opportunity's long and short legs", () => {
    const set: PersistenceSet = { through: THROUGH, pairs: new Map([[key, record()]]) };
    expect(withPersistence(opportunities, set)[0]?.persistence).toEqual({
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
    expect(withPersistence(okxLong, set)[0]?.persistence).toEqual({
      as_of: "2026-11-21T16:00:00.000Z",
      positive_since: null,
      apr_median_7d: -12.5,
      apr_median_30d: -8,
      paid_share_7d: 0.059524, // 10 / 168
      apr_stddev_7d: 3.25,
    });
  });

  it("attaches in place on items the caller owns, the same figures as the copying form", () => {
    const set: PersistenceSet = { through: THROUGH, pairs: new Map([[key, record()]]) };
    const own = computeOpportunities([
      makeSnapshot({ exchange: "binance", fundingRate: 0.0001 }),
      makeSnapshot({ exchange: "okx", fundingRate: 0.0003 }),
    ]).opportunities;
    const attached = attachPersistence(own, set);
    expect(attached).toBe(own);
    expect(attached).toEqual(withPersistence(opportunities, set));
    expect(opportunities[0]?.persistence).toEqual(UNKNOWN_PERSISTENCE); // withPersistence copied
  });

  it("leaves every figure unknown for a pair the set does not hold, and without a set", () => {
    expect(withPersistence(opportunities, { through: THROUGH, pairs: new Map() })[0]?.persistence).toEqual(UNKNOWN_PERSISTENCE);
    expect(withPersistence(opportunities, null)[0]?.persistence).toEqual(UNKNOWN_PERSISTENCE);
  });
});

describe("a stored persistence set", () => {
  it("round-trips through its packed form", () => {
    const pairs = new Map<string, PairRecord>([
      [pairKey("binance", "BTC/USDT:USDT", "okx", "BTC/USDT:USDT").key, record()],
      [pairKey("bybit", "ETH/USDT:USDT", "okx", "ETH/USDT:USDT").key, record({ since: null, sinceSign: 0, median7: null, median30: null, stddev7: null, settledHours: 0, secondPaidMore: 0, firstPaidMore: 0 })],
    ]);
    const set = { through: THROUGH, pairs };
    expect(unpackPersistence(THROUGH, packPersistence(set))).toEqual(set);
  });

  it("refuses a malformed row rather than attach it", () => {
    const garbled = { through: THROUGH, pairs: new Map([["k", record({ settledHours: 1.5 })]]) };
    expect(() => unpackPersistence(THROUGH, packPersistence(garbled))).toThrow();
  });
});
