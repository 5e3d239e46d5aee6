import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { describe, expect, it } from "vitest";
import { BORROW_ENDPOINTS, readBorrowRates } from "@/lib/market/carry/read-borrow-rates";
import { SPOT_TICKER_VENUES, readSpotTickers, splitJoinedSymbol } from "@/lib/market/carry/read-spot-tickers";
import { spotLegOf } from "@/lib/market/carry/spot-leg-of";
import { venueModuleUrl } from "@/lib/market/venues/connectors/load-ccxt";
import { annualisedBorrowPct } from "@/lib/market/carry/spot-leg";
import { SPOT_TAKER_FEES } from "@/lib/market/carry/spot-taker-fees";
import { BORROW_EXPECTATIONS, SPOT_EXPECTATIONS } from "./carry-expectations";

const OBSERVED_AT = "2026-12-04T00:00:00.000Z";

function carryFixture(path: string): unknown {
  return JSON.parse(readFileSync(new URL(`../fixtures/carry/${path}`, import.meta.url), "utf8"));
}

describe.each(SPOT_EXPECTATIONS)("$venue spot tickers ($fixture)", (expectation) => {
  it("read as a spot leg with the answer's price, its USD volume and the taker fee", () => {
    const fixture = carryFixture(expectation.fixture);
    const rows = readSpotTickers(expectation.venue, expectation.dataOnly ? { code: "200000", data: fixture } : fixture);
    expect(rows).toHaveLength(1);
    const leg = spotLegOf(expectation.venue, rows[0]!, { observedAt: OBSERVED_AT, borrow: null });
    expect(leg).toEqual({
      exchange: expectation.exchange,
      market: expectation.market,
      base: expectation.base,
      quote: expectation.quote,
      price: expectation.price,
      volume24hUsd: expectation.volume24hUsd,
      takerFee: expectation.takerFee,
      borrow: null,
      observedAt: OBSERVED_AT,
    });
  });
});

type CcxtTicker = { symbol: string; last: number | undefined; quoteVolume: number | undefined };
type CcxtExchange = { setMarkets(markets: Record<string, unknown>[]): void } & Record<string, (row: unknown) => CcxtTicker>;

describe.each(SPOT_EXPECTATIONS)("$venue spot ticker against ccxt's parse", (expectation) => {
  it("takes the price and quote volume ccxt's fetchTickers takes from the same row", async () => {
    const ccxtIndex = createRequire(import.meta.url).resolve("ccxt");
    const ccxtModule = (await import(/* @vite-ignore */ venueModuleUrl(ccxtIndex, expectation.venue))) as { default: new () => CcxtExchange };
    const exchange = new ccxtModule.default();
    const { id, symbol, parse = "parseTicker" } = expectation.ccxt;
    const [base, quote] = symbol.split("/");
    // The market ccxt would have loaded: a spot market, which is what makes OKX's volCcy24h a quote volume.
    exchange.setMarkets([{ id, symbol, base, quote, baseId: base, quoteId: quote, spot: true, type: "spot", contract: false, active: true }]);
    const parsed = exchange[parse]!.call(exchange, expectation.ccxt.row(carryFixture(expectation.fixture)));
    expect(parsed.symbol).toBe(symbol);
    expect(parsed.last).toBe(expectation.price);
    // ccxt states a volume it cannot convert too: compare with the quote volume, whatever the quote.
    const [row] = readSpotTickers(expectation.venue, expectation.dataOnly ? { code: "200000", data: carryFixture(expectation.fixture) } : carryFixture(expectation.fixture));
    expect(parsed.quoteVolume).toBe(row!.quoteVolume24h);
  });
});

describe("spot taker fees", () => {
  it("give every spot venue a dated, sourced base-tier figure or none", () => {
    expect(Object.keys(SPOT_TAKER_FEES).sort()).toEqual([...SPOT_TICKER_VENUES].sort());
    for (const [venue, schedule] of Object.entries(SPOT_TAKER_FEES)) {
      if (schedule === null) continue;
      // Every schedule found states 0.1 %: a figure outside 0–0.5 % would be a typo (a percent written as a decimal).
      expect(schedule.taker, venue).toBeGreaterThan(0);
      expect(schedule.taker, venue).toBeLessThanOrEqual(0.005);
      expect(schedule.asOf, venue).toMatch(/^\d{4}-\d{2}-\d{2}$/);
      expect(schedule.source.length, venue).toBeGreaterThan(10);
    }
  });

  it("prefer the fee a market states over its venue's schedule", () => {
    const row = { venueSymbol: "KCS-USDT", venueBase: "KCS", venueQuote: "USDT", price: 10, quoteVolume24h: 1, takerFee: 0.002 };
    expect(spotLegOf("kucoin", row, { observedAt: OBSERVED_AT, borrow: null }).takerFee).toBe(0.002);
    expect(spotLegOf("kucoin", { ...row, takerFee: null }, { observedAt: OBSERVED_AT, borrow: null }).takerFee).toBeNull();
    expect(spotLegOf("okx", { ...row, takerFee: null }, { observedAt: OBSERVED_AT, borrow: null }).takerFee).toBe(0.001);
  });
});

describe.each(BORROW_EXPECTATIONS)("$endpoint: $asset ($fixture)", (expectation) => {
  it("reads the rate in the period the venue states, with what it lends", () => {
    const rates = readBorrowRates(expectation.endpoint, carryFixture(expectation.fixture), OBSERVED_AT, expectation.askedFor);
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
    // An empty rate is not a zero rate.
    const blank = { code: "0", data: [{ basic: [{ ccy: "BTC", rate: "", quota: "10" }] }] };
    expect(() => readBorrowRates("okx-interest-rate-loan-quota", blank, OBSERVED_AT)).toThrow(/not a decimal: ""/);
  });

  it("attach a venue's borrow rate for the leg's base, kept in its own period", () => {
    const [ticker] = readSpotTickers("okx", carryFixture("okx/market_ticker_SPOT_BTC-USDT_2023-01-04.json"));
    const rates = readBorrowRates("okx-interest-rate-loan-quota", carryFixture("okx/public_interest-rate-loan-quota_DOC_older-variant.json"), OBSERVED_AT);
    const leg = spotLegOf("okx", ticker!, { observedAt: OBSERVED_AT, borrow: rates.find((rate) => rate.asset === "BTC") ?? null });
    expect(leg.borrow).toMatchObject({ asset: "BTC", rate: 0.00019992, period: "day", borrowable: 10 });
  });

  it("skip a KuCoin market that has not traded (no last price)", () => {
    const body = { code: "200000", data: { ticker: [{ symbol: "NEW-USDT", last: null, volValue: "0", takerFeeRate: "0.001", takerCoefficient: "1" }] } };
    expect(readSpotTickers("kucoin", body)).toEqual([]);
  });

  it("refuse Bitget's documented margin-loans example, whose daily and annual rates contradict each other", () => {
    // "dailyInterest": "0.1", "annualInterest": "0.00416667": 0.1 / 24, not 0.1 × 365.
    const body = carryFixture("bitget/v3_market_margin-loans_BTC_DOC.json");
    expect(() => readBorrowRates("bitget-margin-loans", body, OBSERVED_AT, "BTC")).toThrow(/daily 0.1 × 365 is not the stated annual 0.00416667/);
  });

  it("read Bitget's daily margin-loan rate where the annual one agrees, for the coin asked", () => {
    const body = { code: "00000", msg: "success", data: { dailyInterest: "0.0001", annualInterest: "0.0365", limit: "3000" } };
    const [rate] = readBorrowRates("bitget-margin-loans", body, OBSERVED_AT, "BTC");
    expect(rate).toMatchObject({ asset: "BTC", rate: 0.0001, period: "day", borrowable: null, source: "/api/v3/market/margin-loans" });
    // 0.0001 a day × 365 × 100 = 3.65 % a year.
    expect(annualisedBorrowPct(rate!.rate, rate!.period)).toBeCloseTo(3.65, 10);
    expect(() => readBorrowRates("bitget-margin-loans", body, OBSERVED_AT)).toThrow(/does not name its coin/);
  });

  it("leave out a Binance coin its margin does not lend", () => {
    const body = [{ coin: "XYZ", borrowable: false, dailyInterest: "0.001", borrowLimit: "0" }];
    expect(readBorrowRates("binance-cross-margin-data", body, OBSERVED_AT)).toEqual([]);
  });

  it("price a bundled base per unit of the asset, as perp legs are", () => {
    const row = { venueSymbol: "1000PEPEUSDT", venueBase: "1000PEPE", venueQuote: "USDT", price: 0.012, quoteVolume24h: 5, takerFee: null };
    const leg = spotLegOf("bybit", row, { observedAt: OBSERVED_AT, borrow: null });
    expect(leg.base).toBe("PEPE");
    expect(leg.price).toBeCloseTo(0.000012, 12);
  });
});
