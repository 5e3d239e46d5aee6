/*
 * MEXC futures (https://api.mexc.com/api/v1/contract/…): the healthy answers of one refresh.
 *
 * Everything here is a DOCUMENTED EXAMPLE: no recording of these endpoints exists in an
 * identifiable repository (a search of stored public repositories found none), so the payloads are built in
 * the shape MEXC documents, as ccxt's mexc.js quotes it:
 * - `GET /api/v1/contract/detail`: the BTC_USDT row of ccxt's fetchSwapMarkets comment, unchanged
 *   (its inline remarks dropped); ETH_USDT, XAU_USDT, the inverse BTC_USD and the offline OLD_USDT
 *   are SYNTHETIC rows in that shape.
 * - `GET /api/v1/contract/funding_rate` (no symbol: every contract): the BTC_USDT row of ccxt's
 *   parseFundingRate comment, unchanged; the other rows are SYNTHETIC in that shape, dated with it.
 *   XAU_USDT's 4h `collectCycle` and ±0.03 bounds follow the live row the shared FACTS.md
 *   describes (from a source that could not be identified, so not kept as a recording).
 * - `GET /api/v1/contract/ticker` (no symbol: every contract): the ETH_USDT row of ccxt's
 *   fetchTickers comment, unchanged; the other rows are SYNTHETIC in that shape, dated with it.
 *
 * The two documented rows are of different days (2022-01-26 and 2021-10-13) and the connector
 * reads each field from the payload that states it. MEXC is not in the offline sample.
 */
import type { ReplayRoute } from "../../replay-fetch";

type Row = Record<string, unknown>;

/** ccxt's documented funding row's `timestamp` (2022-01-26 23:39:33Z) and `nextSettleTime` (00:00Z). */
export const MEXC_FUNDING_TIME = 1643240373359;
export const MEXC_NEXT_SETTLE = 1643241600000;
/** ccxt's documented ticker row's `timestamp` (2021-10-13 22:08:05Z). */
export const MEXC_TICKER_TIME = 1634162885016;

const BTC_DETAIL: Row = {
  symbol: "BTC_USDT",
  displayName: "BTC_USDT永续",
  displayNameEn: "BTC_USDT SWAP",
  positionOpenType: 3,
  baseCoin: "BTC",
  quoteCoin: "USDT",
  settleCoin: "USDT",
  contractSize: 0.0001,
  minLeverage: 1,
  maxLeverage: 125,
  priceScale: 2,
  volScale: 0,
  amountScale: 4,
  priceUnit: 0.5,
  volUnit: 1,
  minVol: 1,
  maxVol: 1000000,
  bidLimitPriceRate: 0.1,
  askLimitPriceRate: 0.1,
  takerFeeRate: 0.0006,
  makerFeeRate: 0.0002,
  maintenanceMarginRate: 0.004,
  initialMarginRate: 0.008,
  riskBaseVol: 10000,
  riskIncrVol: 200000,
  riskIncrMmr: 0.004,
  riskIncrImr: 0.004,
  riskLevelLimit: 5,
  priceCoefficientVariation: 0.1,
  indexOrigin: ["BINANCE", "GATEIO", "HUOBI", "MXC"],
  state: 0,
  isNew: false,
  isHot: true,
  isHidden: false,
};

function detail(symbol: string, fields: Row): Row {
  const [baseCoin, quoteCoin] = symbol.split("_");
  return { ...BTC_DETAIL, symbol, displayName: `${symbol}永续`, displayNameEn: `${symbol} SWAP`, baseCoin, quoteCoin, settleCoin: quoteCoin, isHot: false, ...fields };
}

export function mexcDetailRows(): Row[] {
  return [
    BTC_DETAIL,
    detail("ETH_USDT", { contractSize: 0.01, priceScale: 2, priceUnit: 0.05 }),
    detail("XAU_USDT", { contractSize: 0.001, priceScale: 1, priceUnit: 0.1, maxLeverage: 100 }),
    // Coin-margined: settled in BTC, so not a linear perpetual.
    detail("BTC_USD", { settleCoin: "BTC", contractSize: 100, priceUnit: 0.5 }),
    // state 3: offline.
    detail("OLD_USDT", { contractSize: 1, state: 3 }),
  ];
}

export function mexcFundingRows(): Row[] {
  const row = (symbol: string, fundingRate: number, limit: number, collectCycle: number): Row => ({
    symbol,
    fundingRate,
    maxFundingRate: limit,
    minFundingRate: -limit,
    collectCycle,
    nextSettleTime: MEXC_NEXT_SETTLE,
    timestamp: MEXC_FUNDING_TIME,
  });
  return [
    // ccxt's documented row.
    row("BTC_USDT", 0.000014, 0.003, 8),
    row("ETH_USDT", 0.000062, 0.003, 8),
    row("XAU_USDT", -0.000125, 0.03, 4),
    row("BTC_USD", 0.0001, 0.003, 8),
  ];
}

export function mexcTickerRows(): Row[] {
  const row = (symbol: string, fields: Row): Row => ({
    symbol,
    lastPrice: 0,
    bid1: 0,
    ask1: 0,
    volume24: 0,
    amount24: 0,
    holdVol: 0,
    lower24Price: 0,
    high24Price: 0,
    riseFallRate: 0,
    riseFallValue: 0,
    indexPrice: 0,
    fairPrice: 0,
    fundingRate: 0,
    maxBidPrice: 0,
    minAskPrice: 0,
    timestamp: MEXC_TICKER_TIME,
    ...fields,
  });
  return [
    row("BTC_USDT", {
      lastPrice: 57318.5,
      bid1: 57318,
      ask1: 57318.5,
      volume24: 98234410,
      amount24: 562118330.25,
      holdVol: 41250300,
      lower24Price: 54870,
      high24Price: 57820,
      riseFallRate: 0.0312,
      riseFallValue: 1734.5,
      indexPrice: 57301.33,
      fairPrice: 57310.2,
      fundingRate: 0.000014,
      maxBidPrice: 63031.4,
      minAskPrice: 51571.2,
    }),
    // ccxt's documented row, unchanged.
    row("ETH_USDT", {
      lastPrice: 3581.3,
      bid1: 3581.25,
      ask1: 3581.5,
      volume24: 4045530,
      amount24: 141331823.5755,
      holdVol: 5832946,
      lower24Price: 3413.4,
      high24Price: 3588.7,
      riseFallRate: 0.0275,
      riseFallValue: 95.95,
      indexPrice: 3580.7852,
      fairPrice: 3581.08,
      fundingRate: 0.000063,
      maxBidPrice: 3938.85,
      minAskPrice: 3222.7,
    }),
    row("XAU_USDT", {
      lastPrice: 1768.4,
      bid1: 1768.3,
      ask1: 1768.5,
      volume24: 1204500,
      amount24: 2130045.9,
      holdVol: 803100,
      lower24Price: 1751.2,
      high24Price: 1772.9,
      riseFallRate: 0.0041,
      riseFallValue: 7.2,
      indexPrice: 1768.12,
      fairPrice: 1768.35,
      fundingRate: -0.000125,
      maxBidPrice: 1945.2,
      minAskPrice: 1591.5,
    }),
  ];
}

export function mexcRoutes(): ReplayRoute[] {
  return [
    { path: "/api/v1/contract/detail", reply: { body: { success: true, code: 0, data: mexcDetailRows() } } },
    { path: "/api/v1/contract/funding_rate", reply: { body: { success: true, code: 0, data: mexcFundingRows() } } },
    { path: "/api/v1/contract/ticker", reply: { body: { success: true, code: 0, data: mexcTickerRows() } } },
  ];
}
