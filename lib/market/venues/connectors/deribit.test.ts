import type { MarketInterface } from "ccxt";
import { describe, expect, it } from "vitest";
import type { ReplayRoute } from "../replay-fetch";
import { replayVenue, snapshotsBySymbol } from "@/tests/support/market/replay-venue";
import { fixtureJson } from "@/tests/fixtures/venues/read-fixture";
import { DERIBIT_TIME, deribitRoutes } from "@/tests/fixtures/venues/replays/deribit";
import { deribitObservation } from "./deribit";

const summaryPath = "/api/v2/public/get_book_summary_by_currency";

// Everything replayed is SYNTHETIC (no recording of a Deribit linear perpetual exists); the REAL
// BTC-PERPETUAL WebSocket ticker is parsed directly in the last test.
describe("deribit connector", () => {
  it("ranks on current_funding, the rate accruing now, and keeps funding_8h (the trailing 8 hours) as the last settled figure", async () => {
    const { result, requests } = await replayVenue("deribit", deribitRoutes());
    const bySymbol = snapshotsBySymbol(result);
    expect(bySymbol.get("BTC/USDC:USDC")).toEqual({
      exchange: "deribit",
      market: "BTC/USDC:USDC",
      venueMarketId: "BTC_USDC-PERPETUAL",
      base: "BTC",
      venueBase: "BTC",
      contractMultiplier: 1,
      quote: "USDC",
      settle: "USDC",
      // current_funding: 0 inside the damper, per 8 hours.
      fundingRate: 0,
      predictedFundingRate: null,
      // Caps vary per instrument and are not published in these payloads.
      rateCap: null,
      rateFloor: null,
      fundingIntervalHours: 8,
      fundingIntervalSource: "continuous",
      // Funding is paid continuously: no settlement to wait for.
      nextFundingAt: null,
      markPrice: 92290.47,
      // Book summaries carry no index price.
      indexPrice: null,
      // Linear instruments count open interest in the base coin.
      openInterestUsd: 312.458 * 92290.47,
      volume24hUsd: 133840000,
      takerFee: 0.0005,
      observedAt: DERIBIT_TIME,
      // funding_8h: what the trailing 8 hours paid, per 8 hours.
      lastSettlement: { rate: 0.0000183, at: DERIBIT_TIME },
    });
    expect(bySymbol.get("ETH/USDC:USDC")).toMatchObject({ fundingRate: -0.0000095, lastSettlement: { rate: -0.0000412, at: DERIBIT_TIME } });
    // USDT-settled linear perpetuals come from the second book summary.
    expect(bySymbol.get("ETH/USDT:USDT")).toMatchObject({ fundingRate: 0, fundingIntervalSource: "continuous", lastSettlement: { rate: 0.0000051 } });
    // Futures only (no options, no currencies), then one book per linear settlement currency.
    expect(requests.map((request) => [request.path, request.query])).toEqual([
      ["/api/v2/public/get_instruments", { kind: "future" }],
      [summaryPath, { currency: "USDC", kind: "future" }],
      [summaryPath, { currency: "USDT", kind: "future" }],
    ]);
  });

  it("excludes the coin-settled BTC-PERPETUAL and the dated BTC-26DEC25", async () => {
    const { result } = await replayVenue("deribit", deribitRoutes());
    expect([...snapshotsBySymbol(result).keys()].sort()).toEqual(["BTC/USDC:USDC", "ETH/USDC:USDC", "ETH/USDT:USDT"]);
    expect(result.status === "ok" && result.excluded).toEqual({ notLinearPerp: 2, inactive: 0, unlisted: 0, invalid: 0, noFundingRow: 0 });
  });

  it("goes stale when either linear book fails, and loses only a garbled statistic", async () => {
    const failing: ReplayRoute = { path: summaryPath, query: { currency: "USDT" }, reply: { status: 500, body: "Internal Server Error" } };
    expect((await replayVenue("deribit", [failing, ...deribitRoutes()])).result.status).toBe("stale");

    const garbled: ReplayRoute = {
      path: summaryPath,
      query: { currency: "USDT" },
      reply: {
        body: {
          jsonrpc: "2.0",
          result: [
            { instrument_name: "ETH_USDT-PERPETUAL", mark_price: 3241.02, open_interest: "n/a", current_funding: 0.0000051, funding_8h: 0.0000051, creation_timestamp: DERIBIT_TIME },
          ],
        },
      },
    };
    const { result } = await replayVenue("deribit", [garbled, ...deribitRoutes()]);
    expect(snapshotsBySymbol(result).get("ETH/USDT:USDT")).toMatchObject({ fundingRate: 0.0000051, openInterestUsd: null, volume24hUsd: null });
  });

  it("reads the REAL BTC-PERPETUAL ticker (inverse: open interest already in USD)", () => {
    const frame = fixtureJson<{ params: { data: Record<string, unknown> } }>("deribit/ws_ticker_BTC-PERPETUAL_2025-12-12.json");
    const data = frame.params.data;
    const inverse = { symbol: "BTC/USD:BTC", linear: false } as MarketInterface;
    expect(deribitObservation(data, inverse, 0)).toEqual({
      symbol: "BTC/USD:BTC",
      fundingRate: 0,
      rateCap: undefined,
      rateFloor: undefined,
      interval: { hours: 8, source: "continuous" },
      nextFundingAt: undefined,
      markPrice: 92281.78,
      indexPrice: 92263.55,
      openInterestUsd: 1132329370,
      volume24hUsd: 1092371540,
      observedAt: 1765541474086,
      lastSettlement: { rate: 0.00001742, at: 1765541474086 },
    });
    // current_funding is 0 because the premium, (mark − index) / index ≈ 0.0198 %, lies inside
    // Deribit's ±0.025 % damper; funding_8h still shows the last 8 hours' funding.
    const premium = (Number(data.mark_price) - Number(data.index_price)) / Number(data.index_price);
    expect(Math.abs(premium)).toBeLessThan(0.00025);
  });

  it("ranks ccxt's documented BTC-PERPETUAL summary on +1.2966e-4 accruing now, not the trailing −8.1069e-4", () => {
    // ccxt deribit.js fetchOpenInterest comment (4.5.84), unchanged.
    const row = {
      instrument_name: "BTC-PERPETUAL",
      open_interest: 9978911260,
      mark_price: 87102.01,
      creation_timestamp: 1763674177068,
      volume_usd: 661040250.0,
      current_funding: 1.2966e-4,
      funding_8h: -8.1069e-4,
    };
    const observation = deribitObservation(row, { symbol: "BTC/USD:BTC", linear: false } as MarketInterface, 0);
    expect(observation.fundingRate).toBe(1.2966e-4);
    expect(observation.lastSettlement).toEqual({ rate: -8.1069e-4, at: 1763674177068 });
  });
});
