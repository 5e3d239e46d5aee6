import { describe, expect, it } from "vitest";
import { replayVenue, snapshotsBySymbol } from "@/tests/support/market/replay-venue";
import { fixtureJson } from "@/tests/fixtures/venues/read-fixture";
import { BACKPACK_TIME, backpackRoutes } from "@/tests/fixtures/venues/replays/backpack";
import { backpackFundingInterval } from "./backpack";

// REAL: the markPrices rows of 0G … ARB (2025-10-03) and the ETH and ADA markets rows (with
// `fundingInterval` re-typed as the integer Backpack documents). SYNTHETIC: BTC's rows, the other
// markets rows, open interest and tickers.
describe("backpack connector", () => {
  it("reads markPrices with the markets' millisecond interval and basis-point bounds", async () => {
    const { result, requests } = await replayVenue("backpack", backpackRoutes(), { now: () => BACKPACK_TIME });
    const bySymbol = snapshotsBySymbol(result);
    expect(bySymbol.get("BTC/USDC:USDC")).toEqual({
      exchange: "backpack",
      market: "BTC/USDC:USDC",
      venueMarketId: "BTC_USDC_PERP",
      base: "BTC",
      venueBase: "BTC",
      contractMultiplier: 1,
      quote: "USDC",
      settle: "USDC",
      fundingRate: 0.0000521,
      predictedFundingRate: null,
      // fundingRateUpperBound/LowerBound "100"/"-100" basis points.
      rateCap: 0.01,
      rateFloor: -0.01,
      // fundingInterval 28800000 ms.
      fundingIntervalHours: 8,
      fundingIntervalSource: "venue",
      nextFundingAt: Date.UTC(2025, 9, 3, 16),
      markPrice: 120412.1,
      indexPrice: 120398.40551,
      // openInterest counts BTC.
      openInterestUsd: 118.41205 * 120412.1,
      volume24hUsd: 210500000.75,
      takerFee: null,
      // markPrices carries no time: the refresh's.
      observedAt: BACKPACK_TIME,
    });
    // The REAL ADA rows: 3600000 ms and ±150 bps on the market, the live hourly rate and prices.
    expect(bySymbol.get("ADA/USDC:USDC")).toMatchObject({
      fundingRate: 0.0000125,
      fundingIntervalHours: 1,
      rateCap: 0.015,
      rateFloor: -0.015,
      nextFundingAt: Date.UTC(2025, 9, 3, 11),
      markPrice: 0.85812097,
      indexPrice: 0.85841807,
      openInterestUsd: 1850211 * 0.85812097,
    });
    expect(bySymbol.get("0G/USDC:USDC")).toMatchObject({ fundingRate: -0.000179157, fundingIntervalHours: 1 });
    expect(bySymbol.get("ETH/USDC:USDC")).toMatchObject({ fundingRate: -0.0000183, fundingIntervalHours: 8, rateCap: 0.01 });
    expect(requests.map((request) => [request.path, request.query])).toEqual([
      ["/api/v1/markets", { marketType: "PERP" }],
      ["/api/v1/markPrices", {}],
      ["/api/v1/openInterest", {}],
      ["/api/v1/tickers", {}],
    ]);
  });

  it("counts the recorded symbols without a markets row as unlisted", async () => {
    const { result } = await replayVenue("backpack", backpackRoutes());
    expect([...snapshotsBySymbol(result).keys()].sort()).toEqual([
      "0G/USDC:USDC",
      "AAVE/USDC:USDC",
      "ADA/USDC:USDC",
      "BTC/USDC:USDC",
      "ETH/USDC:USDC",
    ]);
    // 2Z, AERO, APEX, APT, ARB.
    expect(result.status === "ok" && result.excluded).toEqual({ notLinearPerp: 0, inactive: 0, unlisted: 5, invalid: 0, noFundingRow: 0 });
  });

  it("loses only open interest and volume when their endpoints fail", async () => {
    const routes = backpackRoutes().filter((route) => route.path === "/api/v1/markets" || route.path === "/api/v1/markPrices");
    const { result } = await replayVenue("backpack", routes);
    expect(snapshotsBySymbol(result).get("BTC/USDC:USDC")).toMatchObject({
      fundingRate: 0.0000521,
      fundingIntervalHours: 8,
      markPrice: 120412.1,
      openInterestUsd: null,
      volume24hUsd: null,
    });
    expect(result.status === "ok" && result.warnings.map((warning) => warning.split(":")[0])).toEqual(["openInterest", "tickers"]);
  });

  it("reads the interval whether it comes as a number or as ccxt's recorded string", () => {
    const [eth, ada] = fixtureJson<Record<string, unknown>[]>("backpack/markets_PERP_entries_ccxt-markets.json");
    expect(eth?.fundingInterval).toBe("28800000");
    expect(backpackFundingInterval(eth ?? {})).toEqual({ hours: 8, source: "venue" });
    expect(backpackFundingInterval({ ...ada, fundingInterval: 3600000 })).toEqual({ hours: 1, source: "venue" });
    expect(backpackFundingInterval({ fundingInterval: null })).toBeNull();
  });
});
