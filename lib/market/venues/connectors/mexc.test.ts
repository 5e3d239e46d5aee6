import { describe, expect, it } from "vitest";
import { replayVenue, snapshotsBySymbol } from "@/tests/support/market/replay-venue";
import { MEXC_FUNDING_TIME, MEXC_NEXT_SETTLE, MEXC_TICKER_TIME, mexcRoutes } from "@/tests/fixtures/venues/replays/mexc";

// No MEXC recording exists: every payload is a DOCUMENTED EXAMPLE in the shape ccxt's mexc.js
// quotes from MEXC's documentation (BTC_USDT's contract and funding rows and ETH_USDT's ticker row
// verbatim, the other rows SYNTHETIC in that shape). What is asserted is how the connector reads
// that documented shape, not live numbers.
describe("mexc connector", () => {
  it("reads rate, interval, settlement and bounds from the all-contract funding list, prices from the ticker", async () => {
    const { result, requests } = await replayVenue("mexc", mexcRoutes());
    const bySymbol = snapshotsBySymbol(result);
    expect(bySymbol.get("BTC/USDT:USDT")).toEqual({
      exchange: "mexc",
      market: "BTC/USDT:USDT",
      venueMarketId: "BTC_USDT",
      base: "BTC",
      venueBase: "BTC",
      contractMultiplier: 1,
      quote: "USDT",
      settle: "USDT",
      fundingRate: 0.000014,
      // MEXC publishes no forecast apart from the rate.
      predictedFundingRate: null,
      rateCap: 0.003,
      rateFloor: -0.003,
      // collectCycle 8 (hours).
      fundingIntervalHours: 8,
      fundingIntervalSource: "venue",
      nextFundingAt: MEXC_NEXT_SETTLE,
      // fairPrice is MEXC's mark.
      markPrice: 57310.2,
      indexPrice: 57301.33,
      // holdVol 41250300 contracts of 0.0001 BTC.
      openInterestUsd: 41250300 * 0.0001 * 57310.2,
      volume24hUsd: 562118330.25,
      // MEXC's published USDT-M taker fee (ccxt states 0.06 %).
      takerFee: 0.0004,
      // The prices are the ticker's, so the ticker's time, not the funding row's.
      observedAt: MEXC_TICKER_TIME,
    });
    expect(bySymbol.get("ETH/USDT:USDT")).toMatchObject({ markPrice: 3581.08, openInterestUsd: 5832946 * 0.01 * 3581.08, volume24hUsd: 141331823.5755 });
    // A 4h cycle with bounds ten times BTC's.
    expect(bySymbol.get("XAU/USDT:USDT")).toMatchObject({ fundingRate: -0.000125, fundingIntervalHours: 4, rateCap: 0.03, rateFloor: -0.03 });
    // The contract list only: no spot exchangeInfo, no currencies; one funding and one ticker call.
    expect(requests.map((request) => request.path)).toEqual([
      "/api/v1/contract/detail",
      "/api/v1/contract/funding_rate",
      "/api/v1/contract/ticker",
    ]);
    expect(requests.every((request) => Object.keys(request.query).length === 0)).toBe(true);
  });

  it("excludes the coin-margined BTC_USD and the offline contract", async () => {
    const { result } = await replayVenue("mexc", mexcRoutes());
    expect([...snapshotsBySymbol(result).keys()].sort()).toEqual(["BTC/USDT:USDT", "ETH/USDT:USDT", "XAU/USDT:USDT"]);
    expect(result.status === "ok" && result.excluded).toEqual({ notLinearPerp: 1, inactive: 1, unlisted: 0, invalid: 0, noFundingRow: 0 });
  });

  it("loses only the prices, open interest and volume when the ticker fails, and dates rows by the funding list", async () => {
    const routes = mexcRoutes().filter((route) => route.path !== "/api/v1/contract/ticker");
    const { result } = await replayVenue("mexc", routes);
    expect(snapshotsBySymbol(result).get("BTC/USDT:USDT")).toMatchObject({
      fundingRate: 0.000014,
      fundingIntervalHours: 8,
      rateCap: 0.003,
      markPrice: null,
      indexPrice: null,
      openInterestUsd: null,
      volume24hUsd: null,
      observedAt: MEXC_FUNDING_TIME,
    });
    expect(result.status === "ok" && result.warnings.map((warning) => warning.split(":")[0])).toEqual(["ticker"]);
  });

  it("goes stale when the funding list answers one contract instead of a list", async () => {
    const single = { path: "/api/v1/contract/funding_rate", reply: { body: { success: true, code: 0, data: { symbol: "BTC_USDT", fundingRate: 0.0001 } } } };
    const { result } = await replayVenue("mexc", [single, ...mexcRoutes()]);
    expect(result.status).toBe("stale");
  });
});
