import { describe, expect, it } from "vitest";
import { fixtureJson } from "@/tests/fixtures/venues/read-fixture";
import type { ReplayRoute } from "../replay-fetch";
import { replayVenue, snapshotsBySymbol } from "@/tests/support/market/replay-venue";
import { hyperliquidRoutes } from "@/tests/fixtures/venues/venue-replays";
import { parsePredictedFundings } from "./hyperliquid";

const FETCHED_AT = Date.UTC(2026, 8, 27, 13, 10);

// metaAndAssetCtxs and predictedFundings are REAL (Yassi80/hyperliquid fixtures, 2026-09).
describe("hyperliquid connector", () => {
  it("reads funding and market data from metaAndAssetCtxs and the interval from predictedFundings", async () => {
    const { result, requests } = await replayVenue("hyperliquid", hyperliquidRoutes(), { now: () => FETCHED_AT });
    const bySymbol = snapshotsBySymbol(result);
    expect([...bySymbol.keys()].sort()).toEqual(["BTC/USDC:USDC", "ETH/USDC:USDC", "HYPE/USDC:USDC", "SOL/USDC:USDC"]);
    expect(bySymbol.get("BTC/USDC:USDC")).toEqual({
      exchange: "hyperliquid",
      market: "BTC/USDC:USDC",
      venueMarketId: "0",
      base: "BTC",
      venueBase: "BTC",
      contractMultiplier: 1,
      quote: "USDC",
      settle: "USDC",
      fundingRate: 0.0000125,
      // HlPerp's entry of predictedFundings; the protocol caps funding at 4 % an hour both ways.
      predictedFundingRate: 0.0000125,
      rateCap: 0.04,
      rateFloor: -0.04,
      fundingIntervalHours: 1,
      fundingIntervalSource: "venue",
      nextFundingAt: 1790517600000,
      markPrice: 84981,
      indexPrice: 85005,
      openInterestUsd: 38359.47984 * 84981,
      volume24hUsd: 1026494754.6038066149,
      takerFee: 0.00045,
      observedAt: FETCHED_AT,
    });
    expect(requests.map((request) => request.body)).toEqual([{ type: "metaAndAssetCtxs" }, { type: "predictedFundings" }]);
  });

  it("falls back on the protocol's hourly settlement when predictedFundings fails", async () => {
    const routes = hyperliquidRoutes().filter((route) => route.body?.type !== "predictedFundings");
    const { result } = await replayVenue("hyperliquid", routes, { now: () => FETCHED_AT });
    expect(snapshotsBySymbol(result).get("ETH/USDC:USDC")).toMatchObject({
      fundingIntervalHours: 1,
      fundingIntervalSource: "protocol",
      nextFundingAt: Date.UTC(2026, 8, 27, 14),
    });
    expect(result.status === "ok" && result.warnings[0]).toMatch(/^predictedFundings:/);
  });

  it("normalises kPEPE (SYNTHETIC universe entry appended to the real capture)", async () => {
    const [meta, contexts] = fixtureJson<[{ universe: unknown[] } & Record<string, unknown>, unknown[]]>(
      "hyperliquid/metaAndAssetCtxs_2026-09_BTC-ETH-SOL-HYPE.json",
    );
    const payload = [
      { ...meta, universe: [...meta.universe, { szDecimals: 0, name: "kPEPE", maxLeverage: 10, marginTableId: 52 }] },
      [
        ...contexts,
        {
          funding: "-0.0000217",
          openInterest: "3000000000.0",
          prevDayPx: "0.0104",
          dayNtlVlm: "25000000.0",
          premium: "-0.0001",
          oraclePx: "0.010531",
          markPx: "0.010529",
          midPx: "0.01053",
          impactPxs: ["0.010528", "0.01053"],
          dayBaseVlm: "2400000000.0",
        },
      ],
    ];
    const routes: ReplayRoute[] = [
      { method: "POST", path: "/info", body: { type: "metaAndAssetCtxs" }, reply: { body: payload } },
      ...hyperliquidRoutes(),
    ];
    const bySymbol = snapshotsBySymbol((await replayVenue("hyperliquid", routes)).result);
    const pepe = [...bySymbol.values()].find((snapshot) => snapshot.venueBase === "kPEPE");
    expect(pepe).toMatchObject({ base: "PEPE", contractMultiplier: 1000, fundingRate: -0.0000217, fundingIntervalSource: "protocol" });
  });

  it("parses only Hyperliquid's own entries of predictedFundings", () => {
    const parsed = parsePredictedFundings(fixtureJson("hyperliquid/predictedFundings_2026-07-30_partial.json"));
    expect([...parsed.keys()]).toEqual(["0G", "2Z", "AAVE", "ACE"]);
    expect(parsed.get("0G")).toEqual({ fundingRate: -0.0000561913, fundingIntervalHours: 1, nextFundingTime: 1785402000000 });
    expect(() => parsePredictedFundings({ not: "a list" })).toThrow();
  });
});
