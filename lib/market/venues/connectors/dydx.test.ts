import { describe, expect, it } from "vitest";
import type { ReplayRoute } from "../replay-fetch";
import { fixtureJson } from "@/tests/fixtures/venues/read-fixture";
import { DYDX_RECORDED_AT, dydxRoutes } from "@/tests/fixtures/venues/replays/dydx";
import { replayVenue, snapshotsBySymbol } from "@/tests/support/market/replay-venue";
import { nextWholeHour } from "./dydx";

type Markets = { markets: Record<string, Record<string, unknown>> };

/** The REAL perpetualMarkets recording with `edit` applied, served in its place. */
function withMarkets(edit: (markets: Markets["markets"]) => void): ReplayRoute[] {
  const payload = fixtureJson<Markets>("dydx/perpetualMarkets_2025-12-08_sample.json");
  edit(payload.markets);
  return [{ path: "/v4/perpetualMarkets", reply: { body: payload } }];
}

// perpetualMarkets is REAL (mainnet, 2025-12-08, nautilus_trader capture); the delisted market and
// the garbled fields below are SYNTHETIC edits of it.
describe("dydx connector", () => {
  it("reads the hourly rate, oracle price, open interest and volume from perpetualMarkets", async () => {
    const { result, requests } = await replayVenue("dydx", dydxRoutes(), { now: () => DYDX_RECORDED_AT });
    const bySymbol = snapshotsBySymbol(result);
    expect([...bySymbol.keys()]).toEqual(["BTC/USDC:USDC", "ETH/USDC:USDC", "SOL/USDC:USDC"]);
    expect(bySymbol.get("BTC/USDC:USDC")).toEqual({
      exchange: "dydx",
      market: "BTC/USDC:USDC",
      venueMarketId: "BTC-USD",
      base: "BTC",
      venueBase: "BTC",
      contractMultiplier: 1,
      quote: "USDC",
      settle: "USDC",
      // `nextFundingRate`: the running rate of the hourly tick to come, its only quoted rate.
      fundingRate: 0.00000254545454545455,
      predictedFundingRate: 0.00000254545454545455,
      // The indexer states no bound.
      rateCap: null,
      rateFloor: null,
      fundingIntervalHours: 1,
      fundingIntervalSource: "protocol",
      // 16:12Z → the 17:00Z tick.
      nextFundingAt: Date.UTC(2025, 11, 8, 17),
      markPrice: 89919.2,
      indexPrice: 89919.2,
      openInterestUsd: 381.7348 * 89919.2,
      volume24hUsd: 247500844.6834,
      // ccxt's dydx default taker fee (the indexer states none).
      takerFee: 0.0005,
      observedAt: DYDX_RECORDED_AT,
    });
    expect(bySymbol.get("SOL/USDC:USDC")).toMatchObject({ fundingRate: -0.00000143181818181818, markPrice: 135.3 });
    // A fresh client loads the list as its markets, then requests it raw for the rates (a kept
    // client reuses the markets: market-list-reuse.test.ts). Nothing else is asked for.
    expect(requests.map((request) => `${request.method} ${request.path}`)).toEqual(["GET /v4/perpetualMarkets", "GET /v4/perpetualMarkets"]);
  });

  it("takes the next settlement from the protocol's whole-hour ticks, which the real settlements follow", async () => {
    expect(nextWholeHour(Date.UTC(2025, 11, 8, 16, 59, 59, 999))).toBe(Date.UTC(2025, 11, 8, 17));
    expect(nextWholeHour(Date.UTC(2025, 11, 8, 17))).toBe(Date.UTC(2025, 11, 8, 18));
    // The REAL historicalFunding rows: one settlement per hour, on the hour (to the block's second).
    const rows = fixtureJson<{ historicalFunding: { effectiveAt: string }[] }>("dydx/historicalFunding_BTC-USD_2025-12-08.json")
      .historicalFunding.map((row) => Date.parse(row.effectiveAt));
    for (const [index, at] of rows.entries()) {
      expect(at % 3_600_000).toBeLessThan(1_000);
      if (index > 0) expect(Math.round(((rows[index - 1] ?? 0) - at) / 3_600_000)).toBe(1);
    }
    // The sample's moment lies in the hour after the last recorded settlement.
    expect(DYDX_RECORDED_AT - (rows[0] ?? 0)).toBeGreaterThan(0);
    expect(DYDX_RECORDED_AT - (rows[0] ?? 0)).toBeLessThan(3_600_000);
  });

  it("excludes markets that are not ACTIVE", async () => {
    const routes = withMarkets((markets) => {
      markets["LUNA-USD"] = { ...markets["BTC-USD"], clobPairId: "9", ticker: "LUNA-USD", status: "FINAL_SETTLEMENT" };
    });
    const { result } = await replayVenue("dydx", routes);
    expect(snapshotsBySymbol(result).has("LUNA/USDC:USDC")).toBe(false);
    expect(result.status === "ok" && result.excluded.inactive).toBe(1);
  });

  it("drops a market whose rate is garbled, and a garbled statistic costs that field only", async () => {
    const routes = withMarkets((markets) => {
      markets["ETH-USD"] = { ...markets["ETH-USD"], nextFundingRate: "n/a" };
      markets["SOL-USD"] = { ...markets["SOL-USD"], volume24H: "lots", openInterest: null };
    });
    const { result } = await replayVenue("dydx", routes);
    const bySymbol = snapshotsBySymbol(result);
    expect(bySymbol.has("ETH/USDC:USDC")).toBe(false);
    expect(result.status === "ok" && result.excluded.invalid).toBe(1);
    expect(bySymbol.get("SOL/USDC:USDC")).toMatchObject({
      fundingRate: -0.00000143181818181818,
      volume24hUsd: null,
      openInterestUsd: null,
      markPrice: 135.3,
    });
  });
});
