import { describe, expect, it } from "vitest";
import type { ReplayRoute } from "../replay-fetch";
import { COINEX_NOW, coinexRoutes } from "@/tests/fixtures/venues/replays/coinex";
import { replayVenue, snapshotsBySymbol } from "@/tests/support/market/replay-venue";
import { coinexFundingInterval } from "./coinex";

// No CoinEx recording exists: the BTCUSDT funding and ticker rows and the inverse BTCUSD market
// row are the DOCUMENTED EXAMPLES ccxt quotes from CoinEx's docs, everything else is SYNTHETIC in
// that shape (sample/replays/coinex.ts). What is tested is the reading of the documented fields.
describe("coinex connector", () => {
  it("reads the documented funding row: interval from the two settlement times, forecast, bounds", async () => {
    const { result, requests } = await replayVenue("coinex", coinexRoutes(), { now: () => COINEX_NOW });
    const bySymbol = snapshotsBySymbol(result);
    expect(bySymbol.get("BTC/USDT:USDT")).toEqual({
      exchange: "coinex",
      market: "BTC/USDT:USDT",
      venueMarketId: "BTCUSDT",
      base: "BTC",
      venueBase: "BTC",
      contractMultiplier: 1,
      quote: "USDT",
      settle: "USDT",
      // latest_funding_rate "0": a real zero, not a missing rate.
      fundingRate: 0,
      predictedFundingRate: 0.00021074,
      rateCap: 0.00375,
      rateFloor: -0.00375,
      // 1715731200000 (00:00Z) → 1715760000000 (08:00Z).
      fundingIntervalHours: 8,
      fundingIntervalSource: "schedule",
      nextFundingAt: 1715731200000,
      // The funding row's mark; the index only the ticker has.
      markPrice: 61602.22,
      indexPrice: 62443.05,
      // open_interest_volume (base units) of the market list × mark.
      openInterestUsd: 1250.5 * 61602.22,
      volume24hUsd: 180226025.69791713,
      // CoinEx's published VIP0 futures taker fee (ccxt's default placeholder is 0.1 %).
      takerFee: 0.0005,
      // Neither payload has a time.
      observedAt: COINEX_NOW,
    });
    expect(bySymbol.get("ETH/USDT:USDT")).toMatchObject({ fundingRate: -0.00005112, fundingIntervalHours: 8, volume24hUsd: 95012345.5 });
    // next_funding_time four hours after latest_funding_time.
    expect(bySymbol.get("DOGE/USDT:USDT")).toMatchObject({
      fundingRate: 0.00031,
      fundingIntervalHours: 4,
      fundingIntervalSource: "schedule",
      indexPrice: null,
      volume24hUsd: null,
    });
    // The futures list alone: ccxt's spot list (/v2/spot/market) and currencies are not loaded.
    expect(requests.map((request) => request.path)).toEqual([
      "/v2/futures/market",
      "/v2/futures/funding-rate",
      "/v2/futures/ticker",
    ]);
    // All markets in one request each.
    expect(requests.every((request) => Object.keys(request.query).length === 0)).toBe(true);
  });

  it("excludes the inverse BTCUSD and a market CoinEx closed", async () => {
    const { result } = await replayVenue("coinex", coinexRoutes(), { now: () => COINEX_NOW });
    expect([...snapshotsBySymbol(result).keys()]).toEqual(["BTC/USDT:USDT", "DOGE/USDT:USDT", "ETH/USDT:USDT"]);
    expect(result.status === "ok" && result.excluded).toEqual({ notLinearPerp: 1, inactive: 1, unlisted: 0, invalid: 0, noFundingRow: 0 });
  });

  it("loses only the ticker's fields when the ticker fails", async () => {
    const routes = coinexRoutes().filter((route) => route.path !== "/v2/futures/ticker");
    const { result } = await replayVenue("coinex", routes, { now: () => COINEX_NOW });
    expect(snapshotsBySymbol(result).get("BTC/USDT:USDT")).toMatchObject({
      fundingRate: 0,
      fundingIntervalHours: 8,
      markPrice: 61602.22,
      indexPrice: null,
      volume24hUsd: null,
      openInterestUsd: 1250.5 * 61602.22,
    });
    expect(result.status === "ok" && result.warnings.map((warning) => warning.split(":")[0])).toEqual(["ticker"]);
  });

  it("drops a row whose settlement time is garbled and keeps the rest", async () => {
    const [markets, funding, ...rest] = coinexRoutes() as [ReplayRoute, ReplayRoute, ...ReplayRoute[]];
    const body = funding.reply as { body: { data: Record<string, unknown>[] } };
    const garbled: ReplayRoute = {
      ...funding,
      reply: {
        body: {
          ...body.body,
          data: body.body.data.map((row) => (row.market === "ETHUSDT" ? { ...row, latest_funding_time: "soon" } : row)),
        },
      },
    };
    const { result } = await replayVenue("coinex", [markets, garbled, ...rest], { now: () => COINEX_NOW });
    expect(snapshotsBySymbol(result).has("ETH/USDT:USDT")).toBe(false);
    expect(result.status === "ok" && result.excluded.invalid).toBe(1);
  });
});

describe("coinexFundingInterval", () => {
  it("is the whole hours between the two settlements, else unknown", () => {
    expect(coinexFundingInterval({ latest_funding_time: 1715731200000, next_funding_time: 1715738400000 })).toEqual({
      hours: 2,
      source: "schedule",
    });
    // 90 minutes is no settlement schedule.
    expect(coinexFundingInterval({ latest_funding_time: 1715731200000, next_funding_time: 1715736600000 })).toBeNull();
    expect(coinexFundingInterval({ latest_funding_time: 1715731200000 })).toBeNull();
    expect(coinexFundingInterval({ latest_funding_time: 1715760000000, next_funding_time: 1715731200000 })).toBeNull();
  });
});
