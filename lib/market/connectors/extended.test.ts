import { describe, expect, it } from "vitest";
import type { ReplayRoute } from "../replay-fetch";
import { EXTENDED_NEXT_FUNDING_AT, EXTENDED_RECORDED_AT, extendedMarkets, extendedRoutes } from "../sample/replays/extended";
import { replayVenue, snapshotsBySymbol } from "@/tests/support/market/replay-venue";
import { makeSnapshot } from "@/tests/support/market/make-snapshot";
import { netApr } from "../apr";
import { computeOpportunities } from "../opportunities/rank-opportunities";
import { extendedRateBounds } from "./extended";

type Row = Record<string, unknown>;

function withMarkets(edit: (rows: Row[]) => Row[]): ReplayRoute[] {
  const payload = extendedMarkets() as { data: Row[] };
  return [{ path: "/api/v1/info/markets", reply: { body: { ...payload, data: edit(payload.data) } } }];
}

// The BTC-USD market is REAL (mainnet info/markets, 2026-04-29, ccxt's static recording); ETH-USD
// and every edit below are SYNTHETIC.
describe("extended connector", () => {
  it("reads rate, next settlement time, percent cap, prices, open interest and volume from info/markets", async () => {
    const { result, requests } = await replayVenue("extended", extendedRoutes(), { now: () => EXTENDED_RECORDED_AT });
    const bySymbol = snapshotsBySymbol(result);
    expect(bySymbol.get("BTC/USDC:USDC")).toEqual({
      exchange: "extended",
      market: "BTC/USDC:USDC",
      venueMarketId: "BTC-USD",
      base: "BTC",
      venueBase: "BTC",
      contractMultiplier: 1,
      quote: "USDC",
      settle: "USDC",
      fundingRate: 0.000012,
      predictedFundingRate: null,
      // `hourlyFundingRateCap` "0.25" is percent: ±0.0025 an hour.
      rateCap: 0.0025,
      rateFloor: -0.0025,
      fundingIntervalHours: 1,
      fundingIntervalSource: "protocol",
      // `marketStats.nextFundingRate` is this time, not a rate.
      nextFundingAt: 1777446000000,
      markPrice: 77006.091897999984,
      indexPrice: 77050.739529925005,
      // Already collateral amounts (openInterestBase 1491.33012 BTC × mark ≈ the same).
      openInterestUsd: 114851569.088316,
      volume24hUsd: 231216165.6666,
      // Extended's published flat taker fee (ccxt's placeholder is 0.2 %; the market list states none).
      takerFee: 0.00025,
      observedAt: EXTENDED_RECORDED_AT,
    });
    expect(bySymbol.get("ETH/USDC:USDC")).toMatchObject({ fundingRate: -0.000004, fundingIntervalHours: 1 });
    // No info/assets: currencies are not loaded.
    // A fresh client loads the list as its markets, then requests it raw for the rates (a kept
    // client reuses the markets: market-list-reuse.test.ts). Nothing else is asked for.
    expect(requests.map((request) => request.path)).toEqual(["/api/v1/info/markets", "/api/v1/info/markets"]);
  });

  it("dates the sample inside the hour before the recorded next settlement", () => {
    expect(EXTENDED_NEXT_FUNDING_AT - EXTENDED_RECORDED_AT).toBeGreaterThan(0);
    expect(EXTENDED_NEXT_FUNDING_AT - EXTENDED_RECORDED_AT).toBeLessThanOrEqual(3_600_000);
    const btc = (extendedMarkets() as { data: { marketStats: Row }[] }).data[0];
    expect(btc?.marketStats.nextFundingRate).toBe(EXTENDED_NEXT_FUNDING_AT);
  });

  it("reads the cap as percent per hour and leaves a garbled one unknown", () => {
    expect(extendedRateBounds({ hourlyFundingRateCap: "2" })).toEqual({ rateCap: 0.02, rateFloor: -0.02 });
    expect(extendedRateBounds({})).toEqual({ rateCap: undefined, rateFloor: undefined });
    expect(extendedRateBounds({ hourlyFundingRateCap: "none" }).rateCap).toBeNaN();
  });

  it("a garbled cap costs the bounds only; a garbled rate costs the market", async () => {
    const routes = withMarkets((rows) =>
      rows.map((row) => {
        if (row.name === "BTC-USD") return { ...row, tradingConfig: { ...(row.tradingConfig as Row), hourlyFundingRateCap: "none" } };
        return { ...row, marketStats: { ...(row.marketStats as Row), fundingRate: "NaN%" } };
      }),
    );
    const { result } = await replayVenue("extended", routes);
    const bySymbol = snapshotsBySymbol(result);
    expect(bySymbol.get("BTC/USDC:USDC")).toMatchObject({ fundingRate: 0.000012, rateCap: null, rateFloor: null, markPrice: 77006.091897999984 });
    expect(bySymbol.has("ETH/USDC:USDC")).toBe(false);
    expect(result.status === "ok" && result.excluded.invalid).toBe(1);
  });

  it("excludes markets not ACTIVE and spot markets", async () => {
    const routes = withMarkets((rows) => {
      const btc = rows[0] ?? {};
      return [
        ...rows,
        { ...btc, name: "OLD-USD", assetName: "OLD", status: "DELISTED", active: false },
        { ...btc, name: "BTCSPOT-USD", assetName: "BTCSPOT", type: "SPOT" },
      ];
    });
    const { result } = await replayVenue("extended", routes);
    expect([...snapshotsBySymbol(result).keys()]).toEqual(["BTC/USDC:USDC", "ETH/USDC:USDC"]);
    expect(result.status === "ok" && result.excluded).toMatchObject({ inactive: 1, notLinearPerp: 1 });
  });

  it("charges an Extended pair's net_apr Extended's published 0.025 % taker fee, not ccxt's 0.2 % placeholder", async () => {
    const { result } = await replayVenue("extended", extendedRoutes(), { now: () => EXTENDED_RECORDED_AT });
    const extended = snapshotsBySymbol(result).get("BTC/USDC:USDC");
    if (!extended) throw new Error("no Extended BTC snapshot");
    const other = makeSnapshot({ exchange: "okx", fundingRate: 0.0008, takerFee: 0.0005, observedAt: extended.observedAt });
    const [pair] = computeOpportunities([extended, other]).opportunities;
    expect(pair?.long.exchange).toBe("extended");
    // 0.0008/8h short against 0.000012/1h long.
    expect(pair?.net_apr).toBeCloseTo(netApr(pair?.apr ?? Number.NaN, 0.00025, 0.0005, 7), 5);
    // ccxt's placeholder would cost 2 × (0.002 − 0.00025) × 365 / 7 × 100 ≈ 18.25 points more.
    expect((pair?.net_apr ?? 0) - netApr(pair?.apr ?? Number.NaN, 0.002, 0.0005, 7)).toBeCloseTo(18.25, 2);
  });
});
