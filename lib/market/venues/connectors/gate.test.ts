import { describe, expect, it } from "vitest";
import { replayVenue, snapshotsBySymbol } from "@/tests/support/market/replay-venue";
import { gateRoutes } from "@/tests/fixtures/venues/venue-replays";

// All Gate payloads are SYNTHETIC, in the units SOURCES.md records (seconds for interval and
// next settlement).
describe("gate connector", () => {
  it("reads interval seconds, next-apply seconds and contract-sized open interest", async () => {
    const { result, requests } = await replayVenue("gate", gateRoutes(), { now: () => 1790517000000 });
    const bySymbol = snapshotsBySymbol(result);
    expect(bySymbol.get("BTC/USDT:USDT")).toEqual({
      exchange: "gate",
      market: "BTC/USDT:USDT",
      venueMarketId: "BTC_USDT",
      base: "BTC",
      venueBase: "BTC",
      contractMultiplier: 1,
      quote: "USDT",
      settle: "USDT",
      fundingRate: 0.000075,
      // funding_rate_indicative is the forecast; no funding_rate_limit in this contract row.
      predictedFundingRate: 0.000075,
      rateCap: null,
      rateFloor: null,
      fundingIntervalHours: 8,
      fundingIntervalSource: "venue",
      nextFundingAt: 1790524800000,
      markPrice: 84985.2,
      indexPrice: 84990,
      openInterestUsd: 120000000 * 0.0001 * 84985.2,
      volume24hUsd: 1_500_000_000,
      takerFee: 0.0005,
      observedAt: 1790517000000,
    });
    expect(bySymbol.get("ETH/USDT:USDT")).toMatchObject({ fundingIntervalHours: 1, nextFundingAt: 1790517600000 });
    // 7200 s: an interval ccxt's own table does not know.
    expect(bySymbol.get("DOGE/USDT:USDT")).toMatchObject({ fundingIntervalHours: 2 });
    expect(bySymbol.get("PEPE/USDT:USDT")).toMatchObject({ fundingRate: -0.00025, fundingIntervalHours: 4, contractMultiplier: 1 });
    // A fresh client loads the contract list as its markets, then requests it raw for the rates (a
    // kept client reuses the markets: market-list-reuse.test.ts).
    expect(requests.map((request) => request.path)).toEqual([
      "/api/v4/futures/usdt/contracts",
      "/api/v4/futures/usdt/contracts",
      "/api/v4/futures/usdt/tickers",
    ]);
  });

  it("loses only the volume when the tickers fail", async () => {
    const routes = gateRoutes().filter((route) => route.path !== "/api/v4/futures/usdt/tickers");
    const { result } = await replayVenue("gate", routes);
    expect(snapshotsBySymbol(result).get("BTC/USDT:USDT")).toMatchObject({ fundingRate: 0.000075, volume24hUsd: null });
    expect(result.status === "ok" && result.warnings.map((warning) => warning.split(":")[0])).toEqual(["tickers"]);
  });

  it("drops contracts in delisting", async () => {
    const { result } = await replayVenue("gate", gateRoutes());
    expect(snapshotsBySymbol(result).has("OLD/USDT:USDT")).toBe(false);
    expect(result.status === "ok" && result.excluded.inactive).toBe(1);
  });
});
