import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { BORROW_ENDPOINTS, readBorrowRates } from "@/lib/market/carry/read-borrow-rates";
import { readSpotTickers, splitJoinedSymbol } from "@/lib/market/carry/read-spot-tickers";
import { spotLegOf } from "@/lib/market/carry/spot-leg-of";
import { annualisedBorrowPct } from "@/lib/market/carry/spot-leg";
import { BORROW_EXPECTATIONS, SPOT_EXPECTATIONS } from "./carry-expectations";

const OBSERVED_AT = "2026-12-04T00:00:00.000Z";

function carryFixture(path: string): unknown {
  return JSON.parse(readFileSync(new URL(`../fixtures/carry/${path}`, import.meta.url), "utf8"));
}

describe.each(SPOT_EXPECTATIONS)("$venue spot tickers ($fixture)", (expectation) => {
  it("read as a spot leg with the answer's price and its USD volume", () => {
    const rows = readSpotTickers(expectation.venue, carryFixture(expectation.fixture));
    expect(rows).toHaveLength(1);
    const leg = spotLegOf(expectation.venue, rows[0]!, { observedAt: OBSERVED_AT, takerFee: null, borrow: null });
    expect(leg).toMatchObject({
      exchange: expectation.venue,
      market: expectation.market,
      base: expectation.base,
      quote: expectation.quote,
      price: expectation.price,
      volume24hUsd: expectation.volume24hUsd,
    });
  });
});

describe.each(BORROW_EXPECTATIONS)("$endpoint: $asset ($fixture)", (expectation) => {
  it("reads the rate in the period the venue states, with what it lends", () => {
    const rates = readBorrowRates(expectation.endpoint, carryFixture(expectation.fixture), OBSERVED_AT);
    expect(rates).toHaveLength(expectation.count);
    const rate = rates.find((row) => row.asset === expectation.asset);
    expect(rate).toEqual({
      asset: expectation.asset,
      rate: expectation.rate,
      period: expectation.period,
      borrowable: expectation.borrowable,
      source: BORROW_ENDPOINTS[expectation.endpoint].path,
      observedAt: OBSERVED_AT,
    });
    expect(BORROW_ENDPOINTS[expectation.endpoint].access).toBe(expectation.access);
    expect(annualisedBorrowPct(rate!.rate, rate!.period)).toBeCloseTo(expectation.aprPct, 6);
  });
});

describe("carry readers", () => {
  it("read a joined symbol's quote off its end, longest quote first, and skip an unknown quote", () => {
    expect(splitJoinedSymbol("BTCFDUSD")).toEqual({ base: "BTC", quote: "FDUSD" });
    expect(splitJoinedSymbol("ETHBTC")).toEqual({ base: "ETH", quote: "BTC" });
    expect(splitJoinedSymbol("USDT")).toBeNull();
    expect(splitJoinedSymbol("BTCXYZ")).toBeNull();
  });

  it("refuse an answer of another shape rather than read it as no markets", () => {
    expect(() => readSpotTickers("bybit", { retCode: 10001, retMsg: "params error" })).toThrow(/bybit spot tickers: unexpected answer/);
    expect(() => readBorrowRates("okx-interest-rate-loan-quota", { code: "50011", data: [] }, OBSERVED_AT)).toThrow(/unexpected answer/);
  });

  it("leave out a Binance coin its margin does not lend", () => {
    const body = [{ coin: "XYZ", borrowable: false, dailyInterest: "0.001", borrowLimit: "0" }];
    expect(readBorrowRates("binance-cross-margin-data", body, OBSERVED_AT)).toEqual([]);
  });

  it("price a bundled base per unit of the asset, as perp legs are", () => {
    const leg = spotLegOf("bybit", { venueSymbol: "1000PEPEUSDT", venueBase: "1000PEPE", venueQuote: "USDT", price: 0.012, quoteVolume24h: 5 }, { observedAt: OBSERVED_AT, takerFee: null, borrow: null });
    expect(leg.base).toBe("PEPE");
    expect(leg.price).toBeCloseTo(0.000012, 12);
  });
});
