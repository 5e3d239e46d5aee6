import type { BorrowEndpoint } from "@/lib/market/carry/read-borrow-rates";
import type { SpotTickerVenue } from "@/lib/market/carry/read-spot-tickers";
import type { BorrowPeriod } from "@/lib/market/carry/spot-leg";

/**
 * What each venue's spot and margin answers must read as (tests/fixtures/carry/SOURCES.md says
 * where each answer comes from). Every figure is the fixture's own string, so a reader that scaled,
 * swapped or mis-periodised a field fails; APRs are the venue's rate × periods a year × 100, worked
 * out beside each row.
 */
export interface SpotExpectation {
  venue: SpotTickerVenue;
  fixture: string;
  market: string;
  base: string;
  quote: string;
  price: number;
  /** null: the quote is not a dollar stablecoin, so no USD figure is claimed. */
  volume24hUsd: number | null;
  /** The market's own fee where the answer states it, else the venue's schedule (spot-taker-fees.ts). */
  takerFee: number | null;
  /** The exchange id the leg carries. */
  exchange: string;
  /** KuCoin's docs show the `data` object alone: the test wraps it in the `{code: "200000", data}` every KuCoin answer has. */
  dataOnly?: true;
  /**
   * The same row as ccxt's `fetchTickers` parses it, for a second opinion on which field is the
   * price and which the quote volume: where in the answer the row sits, its ccxt market id and
   * symbol, and the parse method (ccxt's KuCoin spot path is `parseSpotOrUtaTicker`).
   */
  ccxt: { row: (body: unknown) => unknown; id: string; symbol: string; parse?: "parseSpotOrUtaTicker" };
}

type Rows = { result: { list: unknown[] } } & { data: unknown[] } & { ticker: unknown[] };

export interface BorrowExpectation {
  endpoint: BorrowEndpoint;
  fixture: string;
  access: "public" | "signed";
  asset: string;
  rate: number;
  period: BorrowPeriod;
  /** Percent a year, simple, worked out by hand from `rate`. */
  aprPct: number;
  borrowable: number | null;
  /** How many rates the answer holds in all. */
  count: number;
  /** The coin the request names, for an answer that does not repeat it (Bitget's margin-loans). */
  askedFor?: string;
}

export const SPOT_EXPECTATIONS: SpotExpectation[] = [
  // Binance's docs example is BNBBTC: BTC-quoted, so its quoteVolume "15.30000000" is BTC, not USD.
  { venue: "binance", exchange: "binance", fixture: "binance/spot_ticker_24hr_BNBBTC_DOC.json", market: "BNB/BTC", base: "BNB", quote: "BTC", price: 4.000002, volume24hUsd: null, takerFee: 0.001,
    ccxt: { row: (body) => body, id: "BNBBTC", symbol: "BNB/BTC" } },
  // Bybit: lastPrice "20533.13"; turnover24h (quote) "243765620.65899866", not volume24h (base) "11801.27771".
  { venue: "bybit", exchange: "bybit", fixture: "bybit/spot_tickers_BTCUSDT_DOC.json", market: "BTC/USDT", base: "BTC", quote: "USDT", price: 20533.13, volume24hUsd: 243765620.65899866, takerFee: 0.001,
    ccxt: { row: (body) => (body as Rows).result.list[0], id: "BTCUSDT", symbol: "BTC/USDT" } },
  // OKX: last "16839.1"; volCcy24h "86702682.03645192" is the quote (≈ vol24h 5150.98 BTC × 16839).
  { venue: "okx", exchange: "okx", fixture: "okx/market_ticker_SPOT_BTC-USDT_2023-01-04.json", market: "BTC/USDT", base: "BTC", quote: "USDT", price: 16839.1, volume24hUsd: 86702682.03645192, takerFee: 0.001,
    ccxt: { row: (body) => (body as Rows).data[0], id: "BTC-USDT", symbol: "BTC/USDT" } },
  // Gate's docs example is a leveraged token: it keeps its own base (BTC3L), so it never pairs with a BTC perp.
  { venue: "gate", exchange: "gate", fixture: "gate/spot_tickers_BTC3L_USDT_DOC.json", market: "BTC3L/USDT", base: "BTC3L", quote: "USDT", price: 2.46140352, volume24hUsd: 1602221.6646837553, takerFee: 0.001,
    ccxt: { row: (body) => (body as unknown[])[0], id: "BTC3L_USDT", symbol: "BTC3L/USDT" } },
  // Gate, recorded by ccxt's developers (fetchTicker of BTC/USDT asks the same endpoint for one pair): last "73373.9"; quote_volume "243764368.46418".
  { venue: "gate", exchange: "gate", fixture: "gate/spot_tickers_BTC_USDT_ccxt-static.json", market: "BTC/USDT", base: "BTC", quote: "USDT", price: 73373.9, volume24hUsd: 243764368.46418, takerFee: 0.001,
    ccxt: { row: (body) => (body as unknown[])[0], id: "BTC_USDT", symbol: "BTC/USDT" } },
  // Bitget: lastPr "85768.48"; quoteVolume "150814327.536654" (usdtVolume agrees to 6 places on a USDT pair).
  { venue: "bitget", exchange: "bitget", fixture: "bitget/spot_market_tickers_BTCUSDT_2026-10-05.json", market: "BTC/USDT", base: "BTC", quote: "USDT", price: 85768.48, volume24hUsd: 150814327.536654, takerFee: 0.001,
    ccxt: { row: (body) => (body as Rows).data[0], id: "BTCUSDT", symbol: "BTC/USDT" } },
  // KuCoin: last "11328.9" (not `buy`, which its docs label "bestAsk"); volValue "25984946.157790431";
  // fee takerFeeRate "0.001" × takerCoefficient "1". KuCoin's spot legs carry its perp venue's id.
  { venue: "kucoin", exchange: "kucoinfutures", fixture: "kucoin/market_allTickers_data_DOC.json", dataOnly: true, market: "BTC/USDT", base: "BTC", quote: "USDT", price: 11328.9, volume24hUsd: 25984946.157790431, takerFee: 0.001,
    ccxt: { row: (body) => (body as Rows).ticker[0], id: "BTC-USDT", symbol: "BTC/USDT", parse: "parseSpotOrUtaTicker" } },
];

export const BORROW_EXPECTATIONS: BorrowExpectation[] = [
  // OKX public quota, daily: 0.00019992 × 365 × 100 = 7.29708 %; quota "10" BTC.
  { endpoint: "okx-interest-rate-loan-quota", fixture: "okx/public_interest-rate-loan-quota_DOC_older-variant.json", access: "public", asset: "BTC", rate: 0.00019992, period: "day", aprPct: 7.29708, borrowable: 10, count: 2 },
  // 0.00043728 × 365 × 100 = 15.96072 %; quota "500000" USDT.
  { endpoint: "okx-interest-rate-loan-quota", fixture: "okx/public_interest-rate-loan-quota_DOC_older-variant.json", access: "public", asset: "USDT", rate: 0.00043728, period: "day", aprPct: 15.96072, borrowable: 500000, count: 2 },
  // Binance next-hourly, per hour: 0.00000571 × 8760 × 100 = 5.001960 %.
  { endpoint: "binance-next-hourly-interest-rate", fixture: "binance/margin_next-hourly-interest-rate_DOC.json", access: "signed", asset: "BTC", rate: 0.00000571, period: "hour", aprPct: 5.00196, borrowable: null, count: 2 },
  // 0.00000578 × 8760 × 100 = 5.063280 %.
  { endpoint: "binance-next-hourly-interest-rate", fixture: "binance/margin_next-hourly-interest-rate_DOC.json", access: "signed", asset: "ETH", rate: 0.00000578, period: "hour", aprPct: 5.06328, borrowable: null, count: 2 },
  // Binance crossMarginData, per day: 0.00026125 × 365 × 100 = 9.535625 % (the answer's own
  // yearlyInterest "0.0953" is the same, rounded); borrowLimit "180" BTC.
  { endpoint: "binance-cross-margin-data", fixture: "binance/margin_crossMarginData_BTC_DOC.json", access: "signed", asset: "BTC", rate: 0.00026125, period: "day", aprPct: 9.535625, borrowable: 180, count: 1 },
  // Bybit UTA, per hour, newest of three equal rows: 0.000014621596 × 8760 × 100 = 12.808518096 %.
  { endpoint: "bybit-interest-rate-history", fixture: "bybit/spot-margin-trade_interest-rate-history_USDC_DOC_first3.json", access: "signed", asset: "USDC", rate: 0.000014621596, period: "hour", aprPct: 12.808518096, borrowable: null, count: 1 },
  // Gate isolated margin estimate, per hour: 0.000002 × 8760 × 100 = 1.752 %; 0.000001 → 0.876 %.
  { endpoint: "gate-uni-estimate-rate", fixture: "gate/margin_uni_estimate_rate_BTC_GT_DOC.json", access: "signed", asset: "BTC", rate: 0.000002, period: "hour", aprPct: 1.752, borrowable: null, count: 2 },
  { endpoint: "gate-uni-estimate-rate", fixture: "gate/margin_uni_estimate_rate_BTC_GT_DOC.json", access: "signed", asset: "GT", rate: 0.000001, period: "hour", aprPct: 0.876, borrowable: null, count: 2 },
  // Bybit classic, per day: 0.000054835 × 365 × 100 = 2.00147750 %; loanAbleAmount "19.220442066850037795" ETH.
  { endpoint: "bybit-loan-info", fixture: "bybit/spot-cross-margin-trade_loan-info_ETH_classic_DOC.json", access: "signed", asset: "ETH", rate: 0.000054835, period: "day", aprPct: 2.0014775, borrowable: 19.220442066850037795, count: 1 },
  // Bitget unified margin-loans, per day, where the stated annual agrees: 0.00100008 × 365 = 0.3650292,
  // the answer's own annualInterest; × 100 = 36.50292 %. The answer names no coin: the recording asked BTC's.
  { endpoint: "bitget-margin-loans", fixture: "bitget/v3_market_margin-loans_BTC_2025-07-18_ccxt-static.json", access: "public", asset: "BTC", askedFor: "BTC", rate: 0.00100008, period: "day", aprPct: 36.50292, borrowable: null, count: 1 },
];
