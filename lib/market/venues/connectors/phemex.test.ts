import { describe, expect, it } from "vitest";
import type { ReplayRoute } from "../replay-fetch";
import { PHEMEX_TICKER_TIME, phemexRoutes } from "@/tests/fixtures/venues/replays/phemex";
import { replayVenue, snapshotsBySymbol } from "@/tests/support/market/replay-venue";
import { phemexFundingInterval, phemexNextSettlement } from "./phemex";

// No faithful Phemex recording exists: the BTCUSDT product and ticker rows and the v1 product list
// are the DOCUMENTED EXAMPLES ccxt quotes from Phemex's docs, everything else is SYNTHETIC in that
// shape (sample/replays/phemex.ts). What is tested is the reading of the documented fields.
describe("phemex connector", () => {
  it("reads the v2 ticker's rate strings, the product's interval in seconds and the ticker's nanoseconds", async () => {
    const { result, requests } = await replayVenue("phemex", phemexRoutes());
    const bySymbol = snapshotsBySymbol(result);
    expect(bySymbol.get("BTC/USDT:USDT")).toEqual({
      exchange: "phemex",
      market: "BTC/USDT:USDT",
      venueMarketId: "BTCUSDT",
      base: "BTC",
      venueBase: "BTC",
      contractMultiplier: 1,
      quote: "USDT",
      settle: "USDT",
      fundingRate: 0.0001,
      predictedFundingRate: 0.0001,
      // Phemex publishes no bounds with the rate.
      rateCap: null,
      rateFloor: null,
      // fundingInterval 28800 (seconds).
      fundingIntervalHours: 8,
      fundingIntervalSource: "venue",
      // "1672142789065593096" ns = 12:06:29Z; the next point of the 8h UTC grid is 16:00Z.
      nextFundingAt: Date.UTC(2022, 11, 27, 16),
      markPrice: 16830.97534951,
      indexPrice: 16830.15651565,
      openInterestUsd: 1323.596 * 16830.97534951,
      volume24hUsd: 124835296.0538,
      // Phemex's published contract taker fee (ccxt's default placeholder is 0.1 %).
      takerFee: 0.0006,
      observedAt: PHEMEX_TICKER_TIME,
    });
    expect(bySymbol.get("ETH/USDT:USDT")).toMatchObject({ fundingRate: -0.00002311, predictedFundingRate: -0.00001, fundingIntervalHours: 8 });
    // fundingInterval 14400: 4h, next settlement still 16:00Z from 12:06Z.
    expect(bySymbol.get("SOL/USDT:USDT")).toMatchObject({
      fundingRate: 0.00025,
      fundingIntervalHours: 4,
      fundingIntervalSource: "venue",
      nextFundingAt: Date.UTC(2022, 11, 27, 16),
    });
    // ccxt's fetchMarkets reads both product lists; the ticker covers every USDT perpetual at once.
    expect(requests.map((request) => request.path)).toEqual([
      "/v1/exchange/public/products",
      "/public/products",
      "/md/v2/ticker/24hr/all",
    ]);
  });

  it("excludes the inverse BTCUSD and a delisted contract although the ticker lists it", async () => {
    const { result } = await replayVenue("phemex", phemexRoutes());
    expect([...snapshotsBySymbol(result).keys()]).toEqual(["BTC/USDT:USDT", "ETH/USDT:USDT", "SOL/USDT:USDT"]);
    expect(result.status === "ok" && result.excluded).toEqual({ notLinearPerp: 1, inactive: 1, unlisted: 0, invalid: 0, noFundingRow: 0 });
  });

  it("reads the timestamp as the JSON number Phemex's own docs show, and drops a row whose time is garbled", async () => {
    const [v2, v1, tickers] = phemexRoutes() as [ReplayRoute, ReplayRoute, ReplayRoute];
    const body = (tickers.reply as { body: { result: Record<string, unknown>[] } }).body;
    const rows = body.result.map((row) => {
      if (row.symbol === "BTCUSDT") return { ...row, timestamp: 1672142789065593000 };
      if (row.symbol === "ETHUSDT") return { ...row, timestamp: "yesterday" };
      return row;
    });
    const { result } = await replayVenue("phemex", [v2, v1, { ...tickers, reply: { body: { ...body, result: rows } } }]);
    const bySymbol = snapshotsBySymbol(result);
    expect(bySymbol.get("BTC/USDT:USDT")?.observedAt).toBe(PHEMEX_TICKER_TIME);
    expect(bySymbol.has("ETH/USDT:USDT")).toBe(false);
    expect(result.status === "ok" && result.excluded.invalid).toBe(1);
  });

  it("has no interval, hence no next settlement, when the product list does not state one", async () => {
    const [v2, ...rest] = phemexRoutes() as [ReplayRoute, ...ReplayRoute[]];
    const body = (v2.reply as { body: { data: { perpProductsV2: Record<string, unknown>[] } } }).body;
    const products = body.data.perpProductsV2.map((row) => (row.symbol === "ETHUSDT" ? { ...row, fundingInterval: undefined } : row));
    const { result } = await replayVenue("phemex", [{ ...v2, reply: { body: { ...body, data: { ...body.data, perpProductsV2: products } } } }, ...rest]);
    expect(snapshotsBySymbol(result).get("ETH/USDT:USDT")).toMatchObject({
      fundingRate: -0.00002311,
      fundingIntervalHours: null,
      fundingIntervalSource: null,
      nextFundingAt: null,
    });
  });
});

describe("phemexFundingInterval", () => {
  it("reads seconds in whole hours only", () => {
    expect(phemexFundingInterval({ fundingInterval: 3600 })).toEqual({ hours: 1, source: "venue" });
    expect(phemexFundingInterval({ fundingInterval: "28800" })).toEqual({ hours: 8, source: "venue" });
    // The v1 list's hours (8), merged over a v2 row by ccxt, are not 8 seconds.
    expect(phemexFundingInterval({ fundingInterval: 8 })).toBeNull();
    expect(phemexFundingInterval({ fundingInterval: 5400 })).toBeNull();
    expect(phemexFundingInterval({})).toBeNull();
    expect(phemexFundingInterval(undefined)).toBeNull();
  });
});

describe("phemexNextSettlement", () => {
  it("is the next point of the interval's UTC grid, never the current one", () => {
    expect(phemexNextSettlement(Date.UTC(2022, 11, 27, 12, 6), 1)).toBe(Date.UTC(2022, 11, 27, 13));
    expect(phemexNextSettlement(Date.UTC(2022, 11, 27, 16), 8)).toBe(Date.UTC(2022, 11, 28, 0));
    expect(phemexNextSettlement(Date.UTC(2022, 11, 27, 12, 6), undefined)).toBeUndefined();
    expect(phemexNextSettlement(Number.NaN, 8)).toBeUndefined();
  });
});
