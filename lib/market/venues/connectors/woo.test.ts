import { describe, expect, it } from "vitest";
import type { ReplayRoute } from "../replay-fetch";
import { fixtureText } from "@/tests/fixtures/venues/read-fixture";
import { WOO_TIME, wooRoutes } from "@/tests/fixtures/venues/replays/woo";
import { replayVenue, snapshotsBySymbol } from "@/tests/support/market/replay-venue";
import { wooFundingInterval } from "./woo";

// PERP_BTC_USDT's funding row and its answer's time are REAL (ccxt's recording, 2025-07-04), as are
// the SPOT_AAVE_USDT instrument and the 2026-08-14 futures answer used in the last test; the PERP
// instruments, the other funding rows and the route set's futures rows are SYNTHETIC in the
// recordings' shape (sample/replays/woo.ts).
describe("woo connector", () => {
  it("reads the real funding row: estimate, stated interval, next settlement, the answer's time", async () => {
    const { result, requests } = await replayVenue("woo", wooRoutes());
    const bySymbol = snapshotsBySymbol(result);
    expect(bySymbol.get("BTC/USDT:USDT")).toEqual({
      exchange: "woo",
      market: "BTC/USDT:USDT",
      venueMarketId: "PERP_BTC_USDT",
      base: "BTC",
      venueBase: "BTC",
      contractMultiplier: 1,
      quote: "USDT",
      settle: "USDT",
      // estFundingRate: the running estimate of the 16:00Z settlement, WOO X's only current rate.
      fundingRate: -0.00000441,
      predictedFundingRate: -0.00000441,
      rateCap: null,
      rateFloor: null,
      fundingIntervalHours: 8,
      fundingIntervalSource: "venue",
      nextFundingAt: 1751644800000,
      markPrice: 108985.3,
      indexPrice: 108996.4,
      openInterestUsd: 251.38812 * 108985.3,
      volume24hUsd: 45012345.67,
      takerFee: 0.0005,
      // The answer's `timestamp`, not the row's estFundingRateTimestamp (a minute earlier).
      observedAt: WOO_TIME,
    });
    expect(bySymbol.get("ETH/USDT:USDT")).toMatchObject({ fundingRate: -0.00001237, fundingIntervalHours: 8 });
    // lastFundingIntervalHours 8, estFundingIntervalHours 4: the current period is the 4h one.
    expect(bySymbol.get("SOL/USDT:USDT")).toMatchObject({
      fundingRate: 0.00021,
      fundingIntervalHours: 4,
      fundingIntervalSource: "venue",
      nextFundingAt: Date.UTC(2025, 6, 4, 12),
    });
    expect(requests.map((request) => request.path)).toEqual([
      "/v3/public/instruments",
      "/v3/public/fundingRate",
      "/v3/public/futures",
    ]);
    expect(requests.every((request) => Object.keys(request.query).length === 0)).toBe(true);
  });

  it("excludes the spot instrument and a suspended perpetual", async () => {
    const { result } = await replayVenue("woo", wooRoutes());
    expect([...snapshotsBySymbol(result).keys()]).toEqual(["BTC/USDT:USDT", "ETH/USDT:USDT", "SOL/USDT:USDT"]);
    expect(result.status === "ok" && result.excluded).toEqual({ notLinearPerp: 1, inactive: 1, unlisted: 0, invalid: 0, noFundingRow: 0 });
  });

  it("loses only prices, open interest and volume when /v3/public/futures fails", async () => {
    const routes = wooRoutes().filter((route) => route.path !== "/v3/public/futures");
    const { result } = await replayVenue("woo", routes);
    expect(snapshotsBySymbol(result).get("BTC/USDT:USDT")).toMatchObject({
      fundingRate: -0.00000441,
      fundingIntervalHours: 8,
      nextFundingAt: 1751644800000,
      markPrice: null,
      indexPrice: null,
      openInterestUsd: null,
      volume24hUsd: null,
      observedAt: WOO_TIME,
    });
    expect(result.status === "ok" && result.warnings.map((warning) => warning.split(":")[0])).toEqual(["futures"]);
  });

  it("parses the real futures answer's types (another day's: 2026-08-14)", async () => {
    const routes: ReplayRoute[] = [
      { path: "/v3/public/futures", reply: { body: fixtureText("woo/futures_v3_PERP_BTC-ETH_2026-08-14.json") } },
      ...wooRoutes().filter((route) => route.path !== "/v3/public/futures"),
    ];
    const { result } = await replayVenue("woo", routes);
    const bySymbol = snapshotsBySymbol(result);
    expect(bySymbol.get("BTC/USDT:USDT")).toMatchObject({
      markPrice: 63006,
      indexPrice: 63034,
      openInterestUsd: 222.90759 * 63006,
      volume24hUsd: 1944183,
    });
    expect(bySymbol.get("ETH/USDT:USDT")).toMatchObject({ markPrice: 1874.8, volume24hUsd: 11518400.5 });
    // No futures row for SOL in that answer.
    expect(bySymbol.get("SOL/USDT:USDT")).toMatchObject({ fundingRate: 0.00021, markPrice: null });
  });
});

describe("wooFundingInterval", () => {
  it("takes the stated hours of the coming settlement, else the span from the last settlement to the next", () => {
    const row = {
      lastFundingRateTimestamp: 1751616000000,
      nextFundingTime: 1751644800000,
      lastFundingIntervalHours: 4,
    };
    expect(wooFundingInterval({ ...row, estFundingIntervalHours: 8 })).toEqual({ hours: 8, source: "venue" });
    // The last period's hours are not the current period's.
    expect(wooFundingInterval(row)).toEqual({ hours: 8, source: "schedule" });
    expect(wooFundingInterval({ ...row, nextFundingTime: 1751616000000 })).toBeNull();
  });
});
