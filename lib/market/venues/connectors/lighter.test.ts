import { describe, expect, it } from "vitest";
import type { ReplayRoute } from "../replay-fetch";
import { fixtureJson } from "@/tests/fixtures/venues/read-fixture";
import { LIGHTER_RECORDED_AT, lighterFundingRates, lighterOrderBookDetails, lighterRoutes } from "@/tests/fixtures/venues/replays/lighter";
import { replayVenue, snapshotsBySymbol } from "@/tests/support/market/replay-venue";
import { lighterHourlyRate } from "./lighter";

type Row = Record<string, unknown>;

function routes(details: Row, rates: Row): ReplayRoute[] {
  return [
    { path: "/api/v1/orderBookDetails", reply: { body: details } },
    { path: "/api/v1/funding-rates", reply: { body: rates } },
  ];
}

// REAL: the ETH orderBookDetails row (2026-05-05) and the funding-rates rows (ETH 2025-11, and a
// late-2025 excerpt with Binance/Bybit rows and Lighter's TON). SYNTHETIC: the BTC market and its
// rate (replays/lighter.ts), and every edit made below.
describe("lighter connector", () => {
  it("reads Lighter's own 8h-scaled rate as the hourly rate it settles, with market data from orderBookDetails", async () => {
    const { result, requests } = await replayVenue("lighter", lighterRoutes(), { now: () => LIGHTER_RECORDED_AT });
    const bySymbol = snapshotsBySymbol(result);
    expect([...bySymbol.keys()]).toEqual(["BTC/USDC:USDC", "ETH/USDC:USDC"]);
    expect(bySymbol.get("ETH/USDC:USDC")).toEqual({
      exchange: "lighter",
      market: "ETH/USDC:USDC",
      venueMarketId: "0",
      base: "ETH",
      venueBase: "ETH",
      contractMultiplier: 1,
      quote: "USDC",
      settle: "USDC",
      // 0.00009599999999999999 over 8 hours → 0.000012 for the hour.
      fundingRate: 0.000012,
      predictedFundingRate: null,
      rateCap: null,
      rateFloor: null,
      fundingIntervalHours: 1,
      fundingIntervalSource: "protocol",
      // 03:46:41Z → the 04:00Z settlement.
      nextFundingAt: Date.UTC(2025, 10, 13, 4),
      // No mark or index in these answers; the last trade is not a mark.
      markPrice: null,
      indexPrice: null,
      // Base-asset open interest sized at the last trade when no mark is sent.
      openInterestUsd: 27350.8981 * 2361.31,
      volume24hUsd: 460664167.955905,
      takerFee: 0,
      observedAt: LIGHTER_RECORDED_AT,
    });
    expect(bySymbol.get("BTC/USDC:USDC")).toMatchObject({ fundingRate: 0.000008, fundingIntervalHours: 1 });
    // TON (market 12) has a Lighter row but no market here; Binance's and Bybit's rows are not Lighter's.
    expect(result.status === "ok" && result.excluded).toMatchObject({ unlisted: 1, invalid: 0, noFundingRow: 0 });
    // No assetDetails: currencies are not loaded.
    expect(requests.map((request) => request.path)).toEqual(["/api/v1/orderBookDetails", "/api/v1/funding-rates"]);
  });

  it("never takes another venue's row of the same market for Lighter's", async () => {
    const rates = lighterFundingRates() as { funding_rates: Row[] };
    // Binance's ETH row listed first, under Lighter's market id 0.
    const mixed = { ...rates, funding_rates: [{ market_id: 0, exchange: "binance", symbol: "ETH", rate: 0.0005 }, ...rates.funding_rates] };
    const { result } = await replayVenue("lighter", routes(lighterOrderBookDetails(), mixed));
    expect(snapshotsBySymbol(result).get("ETH/USDC:USDC")?.fundingRate).toBe(0.000012);
  });

  it("divides by eight without the float's noise, and keeps absent and garbled rates apart", () => {
    expect(lighterHourlyRate(0.00009599999999999999)).toBe(0.000012);
    expect(lighterHourlyRate(-0.00014744)).toBe(-0.00001843);
    expect(lighterHourlyRate("0.0001")).toBe(0.0000125);
    expect(lighterHourlyRate(undefined)).toBeUndefined();
    expect(lighterHourlyRate("n/a")).toBeNaN();
  });

  it("uses the mark and index prices where orderBookDetails sends them (SYNTHETIC fields)", async () => {
    const details = lighterOrderBookDetails() as { order_book_details: Row[] };
    const withPrices = {
      ...details,
      order_book_details: details.order_book_details.map((row) =>
        row.symbol === "ETH" ? { ...row, mark_price: "2360.85", index_price: "2361.02" } : row,
      ),
    };
    const { result } = await replayVenue("lighter", routes(withPrices, lighterFundingRates()));
    expect(snapshotsBySymbol(result).get("ETH/USDC:USDC")).toMatchObject({
      markPrice: 2360.85,
      indexPrice: 2361.02,
      openInterestUsd: 27350.8981 * 2360.85,
    });
  });

  it("excludes inactive perps and spot markets", async () => {
    const details = lighterOrderBookDetails() as { order_book_details: Row[]; spot_order_book_details: Row[] };
    const eth = details.order_book_details[0] ?? {};
    const edited = {
      ...details,
      order_book_details: [...details.order_book_details, { ...eth, symbol: "OLD", market_id: 77, status: "inactive" }],
      spot_order_book_details: [{ ...eth, symbol: "ETH/USDC", market_id: 2048, market_type: "spot" }],
    };
    const rates = lighterFundingRates() as { funding_rates: Row[] };
    const withOld = { ...rates, funding_rates: [...rates.funding_rates, { market_id: 77, exchange: "lighter", symbol: "OLD", rate: 0.0001 }] };
    const { result } = await replayVenue("lighter", routes(edited, withOld));
    expect(snapshotsBySymbol(result).has("OLD/USDC:USDC")).toBe(false);
    expect(result.status === "ok" && result.excluded).toMatchObject({ inactive: 1, notLinearPerp: 1 });
  });

  it("is stale when the answer has no row of Lighter's own", async () => {
    const rates = lighterFundingRates() as { funding_rates: Row[] };
    const othersOnly = { ...rates, funding_rates: rates.funding_rates.filter((row) => row.exchange !== "lighter") };
    const { result } = await replayVenue("lighter", routes(lighterOrderBookDetails(), othersOnly));
    expect(result.status).toBe("stale");
  });

  it("goes stale on the 2025-11 market list, whose rows lack `market_type` (REAL; ccxt 4.5.84 then sees no perpetual)", async () => {
    const old = fixtureJson<Row>("lighter/orderBookDetails_ETH_2025-11.json");
    const { result } = await replayVenue("lighter", routes(old, lighterFundingRates()));
    expect(result.status === "stale" && result.error).toMatch(/no usable funding rate/);
  });
});
