import { describe, expect, it } from "vitest";
import { replayVenue, snapshotsBySymbol } from "@/tests/support/market/replay-venue";
import { OKX_TS, okxRoutes } from "@/tests/fixtures/venues/venue-replays";

// Instruments are REAL (nautilus_trader capture: BTC-USD-SWAP inverse, ETH-USDT-SWAP,
// BTC-USDT-SWAP); funding-rate, mark-price, tickers and open-interest rows are SYNTHETIC.
describe("okx connector", () => {
  it("takes the interval from fundingTime → nextFundingTime and joins prices, volume and OI", async () => {
    const { result, requests } = await replayVenue("okx", okxRoutes());
    const bySymbol = snapshotsBySymbol(result);
    expect(bySymbol.get("BTC/USDT:USDT")).toEqual({
      exchange: "okx",
      market: "BTC/USDT:USDT",
      venueMarketId: "BTC-USDT-SWAP",
      base: "BTC",
      venueBase: "BTC",
      contractMultiplier: 1,
      quote: "USDT",
      settle: "USDT",
      fundingRate: 0.0000912,
      // nextFundingRate is "" (method current_period): no forecast; the bounds are stated.
      predictedFundingRate: null,
      rateCap: 0.00375,
      rateFloor: -0.00375,
      fundingIntervalHours: 8,
      fundingIntervalSource: "schedule",
      nextFundingAt: 1790524800000,
      markPrice: 84975.3,
      indexPrice: null,
      openInterestUsd: 2124382500,
      volume24hUsd: 10000.5 * 84976.0,
      takerFee: 0.0005,
      observedAt: OKX_TS,
    });
    expect(bySymbol.get("ETH/USDT:USDT")).toMatchObject({ fundingRate: -0.0000421, fundingIntervalHours: 4 });
    expect(requests.map((request) => request.path)).toEqual([
      "/api/v5/public/instruments",
      "/api/v5/public/funding-rate",
      "/api/v5/public/mark-price",
      "/api/v5/market/tickers",
      "/api/v5/public/open-interest",
    ]);
  });

  it("excludes the inverse BTC-USD-SWAP although it has a funding row", async () => {
    const { result } = await replayVenue("okx", okxRoutes());
    expect([...snapshotsBySymbol(result).keys()].sort()).toEqual(["BTC/USDT:USDT", "ETH/USDT:USDT"]);
    expect(result.status === "ok" && result.excluded).toEqual({ notLinearPerp: 1, inactive: 0, unlisted: 0, invalid: 0, noFundingRow: 0 });
  });

  it("loses only the extras when their endpoints fail", async () => {
    const routes = okxRoutes().filter((route) => route.path === "/api/v5/public/instruments" || route.path === "/api/v5/public/funding-rate");
    const { result } = await replayVenue("okx", routes);
    expect(snapshotsBySymbol(result).get("BTC/USDT:USDT")).toMatchObject({
      fundingRate: 0.0000912,
      fundingIntervalHours: 8,
      markPrice: null,
      openInterestUsd: null,
      volume24hUsd: null,
    });
    expect(result.status === "ok" && result.warnings.map((warning) => warning.split(":")[0])).toEqual([
      "mark-price",
      "tickers",
      "open-interest",
    ]);
  });
});
