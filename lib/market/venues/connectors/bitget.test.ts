import { describe, expect, it } from "vitest";
import { replayVenue, snapshotsBySymbol } from "@/tests/support/market/replay-venue";
import { bitgetRoutes } from "@/tests/fixtures/venues/venue-replays";

// All Bitget payloads are SYNTHETIC except BTCUSDT's current-fund-rate row, quoted in SOURCES.md.
describe("bitget connector", () => {
  it("reads funding from current-fund-rate and prices from the tickers, for USDT and USDC lines", async () => {
    const { result, requests } = await replayVenue("bitget", bitgetRoutes());
    const bySymbol = snapshotsBySymbol(result);
    expect(bySymbol.get("BTC/USDT:USDT")).toMatchObject({
      venueMarketId: "BTCUSDT",
      fundingRate: 0.000054,
      fundingIntervalHours: 8,
      fundingIntervalSource: "venue",
      nextFundingAt: 1785571200000,
      markPrice: 115010.5,
      openInterestUsd: 30000.5 * 115010.5,
      volume24hUsd: 4_500_000_000,
      takerFee: 0.0006,
    });
    expect(bySymbol.get("BTC/USDC:USDC")).toMatchObject({ venueMarketId: "BTCPERP", fundingRate: 0.00001, fundingIntervalHours: 1 });
    expect(bySymbol.get("PEPE/USDT:USDT")).toMatchObject({ base: "PEPE", fundingRate: -0.00031, fundingIntervalHours: 4 });
    const fundingCalls = requests.filter((request) => request.path.endsWith("current-fund-rate"));
    expect(fundingCalls.map((request) => request.query.productType).sort()).toEqual(["USDC-FUTURES", "USDT-FUTURES"]);
  });

  it("keeps a listed market without a funding row as rate-less, and drops delivery and offline contracts", async () => {
    const { result } = await replayVenue("bitget", bitgetRoutes());
    const bySymbol = snapshotsBySymbol(result);
    expect(bySymbol.get("ETH/USDT:USDT")).toMatchObject({ fundingRate: null, fundingIntervalHours: null, markPrice: null });
    expect([...bySymbol.keys()].some((symbol) => symbol.startsWith("OLD/") || symbol.includes("-"))).toBe(false);
    expect(result.status === "ok" && result.excluded).toEqual({ notLinearPerp: 1, inactive: 1, unlisted: 0, invalid: 0, noFundingRow: 1 });
  });
});
