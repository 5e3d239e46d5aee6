import { describe, expect, it } from "vitest";
import { replayVenue, snapshotsBySymbol } from "@/tests/support/market/replay-venue";
import { BINGX_NEXT_FUNDING, BINGX_UPDATE_TIME, bingxPremiumIndexRows, bingxRoutes } from "@/tests/fixtures/venues/replays/bingx";

// No BingX recording exists: every payload is a DOCUMENTED EXAMPLE in the shape ccxt's bingx.js
// quotes from BingX's documentation (BTC-USDT's contract, premiumIndex and ticker rows verbatim;
// the min/max bounds as the shared FACTS.md describes them; the other rows SYNTHETIC in that
// shape). What is asserted is how the connector reads that documented shape, not live numbers.
describe("bingx connector", () => {
  it("reads rate, interval, settlement, bounds and prices from premiumIndex and turnover from the ticker", async () => {
    const { result, requests } = await replayVenue("bingx", bingxRoutes());
    const bySymbol = snapshotsBySymbol(result);
    expect(bySymbol.get("BTC/USDT:USDT")).toEqual({
      exchange: "bingx",
      market: "BTC/USDT:USDT",
      venueMarketId: "BTC-USDT",
      base: "BTC",
      venueBase: "BTC",
      contractMultiplier: 1,
      quote: "USDT",
      settle: "USDT",
      fundingRate: 0.0001,
      predictedFundingRate: null,
      // minFundingRate / maxFundingRate are strings ("-0.003000").
      rateCap: 0.003,
      rateFloor: -0.003,
      // fundingIntervalHours is a number.
      fundingIntervalHours: 8,
      fundingIntervalSource: "venue",
      nextFundingAt: BINGX_NEXT_FUNDING,
      markPrice: 16884.5,
      indexPrice: 16886.9,
      // No all-contract open interest exists; it is not fetched one contract at a time.
      openInterestUsd: null,
      volume24hUsd: 4151395117.73,
      takerFee: 0.0005,
      observedAt: BINGX_UPDATE_TIME,
    });
    // A bundled contract on a 4h interval with a negative rate.
    expect(bySymbol.get("SHIB/USDT:USDT")).toBeUndefined();
    expect(bySymbol.get("1000SHIB/USDT:USDT")).toMatchObject({
      base: "SHIB",
      venueBase: "1000SHIB",
      contractMultiplier: 1000,
      fundingRate: -0.000412,
      fundingIntervalHours: 4,
      nextFundingAt: BINGX_NEXT_FUNDING - 4 * 3_600_000,
      rateCap: 0.02,
    });
    // The USDT-margined contract list only: no spot symbols, no coin-margined contracts, no currencies.
    expect(requests.map((request) => request.path)).toEqual([
      "/openApi/swap/v2/quote/contracts",
      "/openApi/swap/v2/quote/premiumIndex",
      "/openApi/swap/v2/quote/ticker",
    ]);
    expect(requests.every((request) => request.query.symbol === undefined)).toBe(true);
  });

  it("drops the contract closed to API trading", async () => {
    const { result } = await replayVenue("bingx", bingxRoutes());
    expect([...snapshotsBySymbol(result).keys()].sort()).toEqual(["1000SHIB/USDT:USDT", "BTC/USDT:USDT", "ETH/USDT:USDT"]);
    expect(result.status === "ok" && result.excluded).toEqual({ notLinearPerp: 0, inactive: 1, unlisted: 0, invalid: 0, noFundingRow: 0 });
  });

  it("loses only the volume when the ticker fails", async () => {
    const routes = bingxRoutes().filter((route) => route.path !== "/openApi/swap/v2/quote/ticker");
    const { result } = await replayVenue("bingx", routes);
    expect(snapshotsBySymbol(result).get("ETH/USDT:USDT")).toMatchObject({
      fundingRate: 0.000085,
      fundingIntervalHours: 8,
      markPrice: 1218.42,
      volume24hUsd: null,
    });
    expect(result.status === "ok" && result.warnings.map((warning) => warning.split(":")[0])).toEqual(["ticker"]);
  });

  it("never assumes an interval the row does not state", async () => {
    const rows = bingxPremiumIndexRows().map((row) => (row.symbol === "BTC-USDT" ? { ...row, fundingIntervalHours: undefined } : row));
    const premiumIndex = { path: "/openApi/swap/v2/quote/premiumIndex", reply: { body: { code: 0, msg: "", data: rows } } };
    const { result } = await replayVenue("bingx", [premiumIndex, ...bingxRoutes()]);
    expect(snapshotsBySymbol(result).get("BTC/USDT:USDT")).toMatchObject({ fundingRate: 0.0001, fundingIntervalHours: null, fundingIntervalSource: null });
  });
});
