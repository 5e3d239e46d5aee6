import { describe, expect, it } from "vitest";
import type { ReplayRoute } from "../replay-fetch";
import { replayVenue, snapshotsBySymbol } from "@/tests/support/market/replay-venue";
import { ASTER_TIME, asterRoutes } from "@/tests/fixtures/venues/replays/aster";
import { asterFundingInterval } from "./aster";

// REAL: the GNSUSD, EGL1USD and INJUSDT premiumIndex and fundingInfo rows (2025-09-25) and the
// BTCUSDT exchangeInfo row. SYNTHETIC: BTC's, ETH's and ASTER's funding rows, the other
// exchangeInfo rows and the 24h tickers (replays/aster.ts says which number is which).
describe("aster connector", () => {
  it("reads premiumIndex, the stated interval and caps of fundingInfo, and 24h volume", async () => {
    const { result, requests } = await replayVenue("aster", asterRoutes());
    const bySymbol = snapshotsBySymbol(result);
    expect(bySymbol.get("BTC/USDT:USDT")).toEqual({
      exchange: "aster",
      market: "BTC/USDT:USDT",
      venueMarketId: "BTCUSDT",
      base: "BTC",
      venueBase: "BTC",
      contractMultiplier: 1,
      quote: "USDT",
      settle: "USDT",
      fundingRate: 0.00007513,
      // As on Binance: the running estimate of the next settlement is the only rate quoted.
      predictedFundingRate: 0.00007513,
      rateCap: 0.003,
      rateFloor: -0.003,
      fundingIntervalHours: 8,
      fundingIntervalSource: "venue",
      nextFundingAt: Date.UTC(2025, 8, 25, 8),
      markPrice: 112987.4,
      indexPrice: 113001.52173913,
      // No all-symbol open-interest endpoint.
      openInterestUsd: null,
      volume24hUsd: 1835000000.5,
      // ccxt's base-tier taker fee for Aster.
      takerFee: 0.00035,
      observedAt: ASTER_TIME,
    });
    expect(bySymbol.get("ETH/USDT:USDT")).toMatchObject({ fundingRate: -0.00002136, rateCap: 0.02, rateFloor: -0.02 });
    expect(bySymbol.get("ASTER/USDT:USDT")).toMatchObject({
      fundingIntervalHours: 4,
      fundingIntervalSource: "venue",
      nextFundingAt: Date.UTC(2025, 8, 25, 4),
    });
    // The REAL INJUSDT rows: caps sent as JSON numbers (0.03), not Binance's strings.
    expect(bySymbol.get("INJ/USDT:USDT")).toMatchObject({
      fundingRate: 0.0001,
      rateCap: 0.03,
      rateFloor: -0.03,
      fundingIntervalHours: 8,
      markPrice: 12.24330596,
      volume24hUsd: 8100000,
    });
    // The futures exchangeInfo only: no spot exchangeInfo (ccxt's fetchMarkets loads both), no
    // currencies, nothing signed.
    expect(requests.map((request) => `${request.method} ${request.path}`)).toEqual([
      "GET /fapi/v1/exchangeInfo",
      "GET /fapi/v1/premiumIndex",
      "GET /fapi/v1/fundingInfo",
      "GET /fapi/v1/ticker/24hr",
    ]);
  });

  it("excludes the USD-quoted GNSUSD and EGL1USD", async () => {
    const { result } = await replayVenue("aster", asterRoutes());
    expect([...snapshotsBySymbol(result).keys()].sort()).toEqual(["ASTER/USDT:USDT", "BTC/USDT:USDT", "ETH/USDT:USDT", "INJ/USDT:USDT"]);
    expect(result.status === "ok" && result.excluded).toEqual({ notLinearPerp: 2, inactive: 0, unlisted: 0, invalid: 0, noFundingRow: 0 });
  });

  it('reads a rate of "0" as zero and a null cap as none (the REAL GNSUSD rows, listed as a USDT market here)', async () => {
    const routes = asterRoutes();
    const exchangeInfo = routes.find((route) => route.path === "/fapi/v1/exchangeInfo");
    const body = exchangeInfo && "body" in exchangeInfo.reply ? (exchangeInfo.reply.body as { symbols: Record<string, unknown>[] }) : null;
    if (!body) throw new Error("no exchangeInfo route");
    const symbols = body.symbols.map((row) => (row.symbol === "GNSUSD" ? { ...row, quoteAsset: "USDT", marginAsset: "USDT" } : row));
    const relisted: ReplayRoute = { path: "/fapi/v1/exchangeInfo", reply: { body: { ...body, symbols } } };
    const { result } = await replayVenue("aster", [relisted, ...routes]);
    expect(snapshotsBySymbol(result).get("GNS/USDT:USDT")).toMatchObject({
      venueMarketId: "GNSUSD",
      fundingRate: 0,
      rateCap: null,
      rateFloor: null,
      fundingIntervalHours: 8,
      fundingIntervalSource: "venue",
    });
  });

  it("falls back on the settlement schedule and loses only the extras when fundingInfo and tickers fail", async () => {
    const routes = asterRoutes().filter((route) => route.path === "/fapi/v1/exchangeInfo" || route.path === "/fapi/v1/premiumIndex");
    const { result } = await replayVenue("aster", routes);
    const bySymbol = snapshotsBySymbol(result);
    // 01:38:55 → 08:00 fits only 8h; 01:38:55 → 04:00 fits only 4h.
    expect(bySymbol.get("BTC/USDT:USDT")).toMatchObject({
      fundingRate: 0.00007513,
      fundingIntervalHours: 8,
      fundingIntervalSource: "schedule",
      rateCap: null,
      rateFloor: null,
      volume24hUsd: null,
      markPrice: 112987.4,
    });
    expect(bySymbol.get("ASTER/USDT:USDT")).toMatchObject({ fundingIntervalHours: 4, fundingIntervalSource: "schedule" });
    expect(result.status === "ok" && result.warnings.map((warning) => warning.split(":")[0])).toEqual(["fundingInfo", "ticker/24hr"]);
  });

  it("leaves the interval unknown when the schedule allows more than one", () => {
    // 13:54 → 16:00 fits 4h and 8h alike.
    expect(
      asterFundingInterval({ fundingInfoHours: null, nextFundingTime: Date.UTC(2025, 8, 25, 16), time: Date.UTC(2025, 8, 25, 13, 54) }),
    ).toBeNull();
    expect(asterFundingInterval({ fundingInfoHours: 2, nextFundingTime: undefined, time: undefined })).toEqual({ hours: 2, source: "venue" });
  });
});
