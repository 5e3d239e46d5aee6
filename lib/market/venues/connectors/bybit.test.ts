import { describe, expect, it } from "vitest";
import { usdtPerp } from "@/tests/support/market/make-snapshot";
import { replayVenue, snapshotsBySymbol } from "@/tests/support/market/replay-venue";
import { BYBIT_TIME, bybitRoutes } from "@/tests/fixtures/venues/venue-replays";
import { bybitFundingInterval } from "./bybit";

// All Bybit payloads are SYNTHETIC (see tests/fixtures/venues/venue-replays.ts); the BTC/ETH/SOL rates are
// the real Bybit rates Hyperliquid relayed in its 2026-09 predictedFundings capture.
describe("bybit connector", () => {
  it("reads rate, interval, prices, open interest and turnover from the linear tickers", async () => {
    const { result, requests } = await replayVenue("bybit", bybitRoutes());
    const bySymbol = snapshotsBySymbol(result);
    expect(bySymbol.get("BTC/USDT:USDT")).toEqual({
      exchange: "bybit",
      ...usdtPerp("BTC"),
      fundingRate: 0.0000501,
      // Bybit publishes no forecast apart from its rate; the instrument states the bounds.
      predictedFundingRate: null,
      rateCap: 0.005,
      rateFloor: -0.005,
      fundingIntervalHours: 8,
      fundingIntervalSource: "venue",
      nextFundingAt: 1790524800000,
      markPrice: 84990.1,
      indexPrice: 84990.1,
      openInterestUsd: 1_000_000_000,
      volume24hUsd: 2_000_000_000,
      // Bybit's published base tier (ccxt states 0.06 %).
      takerFee: 0.00055,
      observedAt: BYBIT_TIME,
    });
    expect(bySymbol.get("ETH/USDT:USDT")?.fundingRate).toBe(0.00006392);
    expect(requests.map((request) => `${request.path}?${new URLSearchParams(request.query)}`).sort()).toEqual([
      "/v5/market/instruments-info?category=linear&limit=1000",
      "/v5/market/instruments-info?category=linear&limit=1000&status=PreLaunch",
      "/v5/market/tickers?category=linear",
    ]);
  });

  it("normalises 1000PEPE and keeps its negative 4h rate", async () => {
    const bySymbol = snapshotsBySymbol((await replayVenue("bybit", bybitRoutes())).result);
    expect(bySymbol.get("1000PEPE/USDT:USDT")).toMatchObject({
      base: "PEPE",
      contractMultiplier: 1000,
      fundingRate: -0.00012,
      fundingIntervalHours: 4,
    });
  });

  it("falls back on the instrument's fundingInterval minutes when the ticker omits the hours", async () => {
    const bySymbol = snapshotsBySymbol((await replayVenue("bybit", bybitRoutes())).result);
    expect(bySymbol.get("BTC/USDC:USDC")).toMatchObject({ venueMarketId: "BTCPERP", fundingIntervalHours: 8, fundingIntervalSource: "venue" });
  });

  it("excludes delivery contracts and pre-launch listings", async () => {
    const { result } = await replayVenue("bybit", bybitRoutes());
    const bySymbol = snapshotsBySymbol(result);
    expect([...bySymbol.keys()].sort()).toEqual([
      "1000PEPE/USDT:USDT",
      "BTC/USDC:USDC",
      "BTC/USDT:USDT",
      "ETH/USDT:USDT",
      "SOL/USDT:USDT",
    ]);
    expect(result.status === "ok" && result.excluded).toMatchObject({ notLinearPerp: 1, inactive: 1 });
  });

  it("prefers the ticker's hours to the instrument's minutes and knows when neither says", () => {
    expect(bybitFundingInterval({ fundingIntervalHour: "1" }, { fundingInterval: 480 })).toEqual({ hours: 1, source: "venue" });
    expect(bybitFundingInterval({}, { fundingInterval: 240 })).toEqual({ hours: 4, source: "venue" });
    expect(bybitFundingInterval({}, { fundingInterval: 0 })).toBeNull();
    expect(bybitFundingInterval({}, undefined)).toBeNull();
  });
});
