import { describe, expect, it } from "vitest";
import { replayVenue, snapshotsBySymbol } from "@/tests/support/market/replay-venue";
import {
  KUCOINFUTURES_REPLAY_CLOCK,
  KUCOINFUTURES_SOL_NEXT_FUNDING,
  kucoinfuturesContractRows,
  kucoinfuturesRoutes,
} from "@/tests/fixtures/venues/replays/kucoinfutures";
import { kucoinFundingInterval, kucoinNextSettlement } from "./kucoinfutures";

const replay = (routes = kucoinfuturesRoutes()) => replayVenue("kucoinfutures", routes, { now: () => KUCOINFUTURES_REPLAY_CLOCK });

// The contracts/active rows of XBTUSDTM, XBTUSDM and ETHUSDTM are REAL (ccxt's markets dump,
// late October 2023); SOLUSDTM is a SYNTHETIC row in today's field set; the bounds list is the
// DOCUMENTED EXAMPLE ccxt quotes (XBTUSDTM only). The replay clock is assumed, not recorded.
describe("kucoinfutures connector", () => {
  it("reads every funding field from the contract list and the bounds from the unified funding list", async () => {
    const { result, requests } = await replay();
    const bySymbol = snapshotsBySymbol(result);
    expect(bySymbol.get("BTC/USDT:USDT")).toEqual({
      exchange: "kucoinfutures",
      market: "BTC/USDT:USDT",
      // ccxt spells KuCoin's XBT as BTC; the venue's id keeps it.
      venueMarketId: "XBTUSDTM",
      base: "BTC",
      venueBase: "BTC",
      contractMultiplier: 1,
      quote: "USDT",
      settle: "USDT",
      fundingRate: 0.000198,
      predictedFundingRate: 0.000308,
      // The documented bounds row's, not its rate (-0.000004): the rate is the contract list's.
      rateCap: 0.003,
      rateFloor: -0.003,
      // fundingRateGranularity 28800000 ms.
      fundingIntervalHours: 8,
      fundingIntervalSource: "venue",
      // nextFundingRateTime 11057610 is a countdown: the clock plus it, on the hour (16:00Z).
      nextFundingAt: Date.UTC(2023, 9, 31, 16),
      markPrice: 34448.19,
      indexPrice: 34436.93,
      // openInterest "10964478" contracts of 0.001 BTC.
      openInterestUsd: 10964478 * 0.001 * 34448.19,
      volume24hUsd: 485557940.75860596,
      takerFee: 0.0006,
      // The contract list carries no time.
      observedAt: KUCOINFUTURES_REPLAY_CLOCK,
    });
    expect(bySymbol.get("ETH/USDT:USDT")).toMatchObject({
      fundingRate: 0.000149,
      predictedFundingRate: 0.000234,
      // Not in the documented bounds example.
      rateCap: null,
      rateFloor: null,
      nextFundingAt: Date.UTC(2023, 9, 31, 16),
      openInterestUsd: 6912355 * 0.01 * 1803.76,
    });
    // Contracts only: no spot symbols, spot tickers or currencies are asked for. A fresh client loads
    // the contract list as its markets, then requests it raw for the rates (a kept client reuses
    // the markets: market-list-reuse.test.ts).
    expect(requests.map((request) => request.path)).toEqual([
      "/api/v1/contracts/active",
      "/api/v1/contracts/active",
      "/api/ua/v2/market/funding-rate",
    ]);
  });

  it("reads today's rows: a stated next settlement, a 4h granularity and no forecast (SYNTHETIC row)", async () => {
    const { result } = await replay();
    expect(snapshotsBySymbol(result).get("SOL/USDT:USDT")).toMatchObject({
      venueMarketId: "SOLUSDTM",
      fundingRate: -0.000213,
      predictedFundingRate: null,
      fundingIntervalHours: 4,
      fundingIntervalSource: "venue",
      nextFundingAt: KUCOINFUTURES_SOL_NEXT_FUNDING,
    });
  });

  it("excludes the inverse XBTUSDM (settled in BTC) although it has funding fields", async () => {
    const { result } = await replay();
    expect([...snapshotsBySymbol(result).keys()].sort()).toEqual(["BTC/USDT:USDT", "ETH/USDT:USDT", "SOL/USDT:USDT"]);
    expect(result.status === "ok" && result.excluded).toEqual({ notLinearPerp: 1, inactive: 0, unlisted: 0, invalid: 0, noFundingRow: 0 });
  });

  it("loses only the bounds when the unified funding list fails", async () => {
    const routes = kucoinfuturesRoutes().filter((route) => route.path === "/api/v1/contracts/active");
    const { result } = await replay(routes);
    expect(snapshotsBySymbol(result).get("BTC/USDT:USDT")).toMatchObject({
      fundingRate: 0.000198,
      fundingIntervalHours: 8,
      rateCap: null,
      rateFloor: null,
      markPrice: 34448.19,
    });
    expect(result.status === "ok" && result.warnings.map((warning) => warning.split(":")[0])).toEqual(["funding-rate bounds"]);
  });

  it("drops a contract whose countdown is garbled and keeps the rest", async () => {
    const rows = kucoinfuturesContractRows().map((row) => (row.symbol === "ETHUSDTM" ? { ...row, nextFundingRateTime: "soon" } : row));
    const routes = [{ path: "/api/v1/contracts/active", reply: { body: { code: "200000", data: rows } } }, ...kucoinfuturesRoutes()];
    const { result } = await replay(routes);
    const bySymbol = snapshotsBySymbol(result);
    expect(bySymbol.has("ETH/USDT:USDT")).toBe(false);
    expect(bySymbol.get("BTC/USDT:USDT")?.fundingRate).toBe(0.000198);
    expect(result.status === "ok" && result.excluded.invalid).toBe(1);
  });
});

describe("kucoinNextSettlement", () => {
  const fetchedAt = Date.UTC(2026, 8, 22, 21, 43, 27, 120);

  it("never reads the countdown as a time", () => {
    expect(kucoinNextSettlement({ nextFundingRateTime: 8192636 }, fetchedAt)).toBe(Date.UTC(2026, 8, 23, 0));
  });

  it("prefers the stated time over the countdown", () => {
    const stated = Date.UTC(2026, 8, 23, 4);
    expect(kucoinNextSettlement({ nextFundingRateTime: 8192636, nextFundingRateDateTime: stated }, fetchedAt)).toBe(stated);
  });

  it("keeps the computed time when no whole hour is within a minute of it", () => {
    expect(kucoinNextSettlement({ nextFundingRateTime: 1_800_000 }, fetchedAt)).toBe(fetchedAt + 1_800_000);
  });

  it("is unknown without either field, and garbled when the countdown is", () => {
    expect(kucoinNextSettlement({}, fetchedAt)).toBeUndefined();
    expect(kucoinNextSettlement({ nextFundingRateTime: "soon" }, fetchedAt)).toBeNaN();
  });
});

describe("kucoinFundingInterval", () => {
  it("reads the interval in force (currentFundingRateGranularity) before the configured one", () => {
    // A contract moved from 8h to 4h: the period running now still settles on 8h.
    const moving = { currentFundingRateGranularity: 28_800_000, fundingRateGranularity: 14_400_000 };
    expect(kucoinFundingInterval(moving)).toEqual({ hours: 8, source: "venue" });
  });

  it("falls back to fundingRateGranularity where the current one is absent", () => {
    expect(kucoinFundingInterval({ fundingRateGranularity: 3_600_000 })).toEqual({ hours: 1, source: "venue" });
    expect(kucoinFundingInterval({})).toBeNull();
  });
});
