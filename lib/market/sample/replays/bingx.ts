/*
 * BingX USDT-margined perpetuals (https://open-api.bingx.com/openApi/swap/v2/quote/…): the healthy
 * answers of one refresh.
 *
 * Everything here is a DOCUMENTED EXAMPLE: no recording of these endpoints exists in an
 * identifiable repository (a search of stored public repositories found none), so the payloads are built in
 * the shape BingX documents, as ccxt's bingx.js quotes it:
 * - `GET /openApi/swap/v2/quote/contracts`: the BTC-USDT row of ccxt's fetchSwapMarkets comment,
 *   unchanged; ETH-USDT, 1000SHIB-USDT and the closed OLD-USDT (`apiStateOpen` "false") are
 *   SYNTHETIC rows in that shape.
 * - `GET /openApi/swap/v2/quote/premiumIndex` (no symbol: every contract): the BTC-USDT row of
 *   ccxt's parseFundingRate comment (symbol, prices, `lastFundingRate`, `nextFundingTime`,
 *   `fundingIntervalHours`, `updateTime`), plus `minFundingRate`/`maxFundingRate`, which ccxt does
 *   not quote: their names, string type and "±0.003000" value are those the shared FACTS.md
 *   describes from a live row whose source could not be identified. The other rows are SYNTHETIC in
 *   that shape, dated with it.
 * - `GET /openApi/swap/v2/quote/ticker` (no symbol: every contract): the BTC-USDT swap row of
 *   ccxt's parseTicker comment, unchanged; the other rows are SYNTHETIC in that shape.
 *
 * BingX is not in the offline sample.
 */
import type { ReplayRoute } from "../../replay-fetch";

type Row = Record<string, unknown>;

/** The documented premiumIndex row's `updateTime` (2022-12-26 00:00Z) and `nextFundingTime` (08:00Z). */
export const BINGX_UPDATE_TIME = 1672012800000;
export const BINGX_NEXT_FUNDING = 1672041600000;

const BTC_CONTRACT: Row = {
  contractId: "100",
  symbol: "BTC-USDT",
  size: "0.0001",
  quantityPrecision: "4",
  pricePrecision: "1",
  feeRate: "0.0005",
  makerFeeRate: "0.0002",
  takerFeeRate: "0.0005",
  tradeMinLimit: "0",
  tradeMinQuantity: "0.0001",
  tradeMinUSDT: "2",
  maxLongLeverage: "125",
  maxShortLeverage: "125",
  currency: "USDT",
  asset: "BTC",
  status: "1",
  apiStateOpen: "true",
  apiStateClose: "true",
  ensureTrigger: true,
  triggerFeeRate: "0.00020000",
};

export function bingxContractRows(): Row[] {
  const contract = (contractId: string, symbol: string, fields: Row): Row => ({
    ...BTC_CONTRACT,
    contractId,
    symbol,
    asset: symbol.split("-")[0],
    ...fields,
  });
  return [
    BTC_CONTRACT,
    contract("101", "ETH-USDT", { size: "0.01", quantityPrecision: "2", pricePrecision: "2", tradeMinQuantity: "0.01" }),
    contract("250", "1000SHIB-USDT", { size: "1", quantityPrecision: "0", pricePrecision: "6", tradeMinQuantity: "1", maxLongLeverage: "50", maxShortLeverage: "50" }),
    contract("999", "OLD-USDT", { size: "1", quantityPrecision: "0", pricePrecision: "4", apiStateOpen: "false", apiStateClose: "false" }),
  ];
}

export function bingxPremiumIndexRows(): Row[] {
  return [
    // ccxt's documented row, with the bounds FACTS.md describes.
    {
      symbol: "BTC-USDT",
      markPrice: "16884.5",
      indexPrice: "16886.9",
      lastFundingRate: "0.0001",
      nextFundingTime: BINGX_NEXT_FUNDING,
      fundingIntervalHours: 8,
      updateTime: BINGX_UPDATE_TIME,
      minFundingRate: "-0.003000",
      maxFundingRate: "0.003000",
    },
    {
      symbol: "ETH-USDT",
      markPrice: "1218.42",
      indexPrice: "1218.90",
      lastFundingRate: "0.000085",
      nextFundingTime: BINGX_NEXT_FUNDING,
      fundingIntervalHours: 8,
      updateTime: BINGX_UPDATE_TIME,
      minFundingRate: "-0.003000",
      maxFundingRate: "0.003000",
    },
    // A 4h contract settling at 04:00Z, with a negative rate.
    {
      symbol: "1000SHIB-USDT",
      markPrice: "0.008735",
      indexPrice: "0.008741",
      lastFundingRate: "-0.000412",
      nextFundingTime: BINGX_NEXT_FUNDING - 4 * 3_600_000,
      fundingIntervalHours: 4,
      updateTime: BINGX_UPDATE_TIME,
      minFundingRate: "-0.020000",
      maxFundingRate: "0.020000",
    },
  ];
}

export function bingxTickerRows(): Row[] {
  return [
    // ccxt's documented swap row, unchanged.
    {
      symbol: "BTC-USDT",
      priceChange: "52.5",
      priceChangePercent: "0.31%",
      lastPrice: "16880.5",
      lastQty: "2.2238",
      highPrice: "16897.5",
      lowPrice: "16726.0",
      volume: "245870.1692",
      quoteVolume: "4151395117.73",
      openPrice: "16832.0",
      openTime: 1672026667803,
      closeTime: 1672026648425,
      bidPrice: 16726.0,
      bidQty: 0.05,
      askPrice: 16726.0,
      askQty: 0.05,
    },
    {
      symbol: "ETH-USDT",
      priceChange: "3.12",
      priceChangePercent: "0.26%",
      lastPrice: "1218.35",
      lastQty: "0.85",
      highPrice: "1224.10",
      lowPrice: "1209.77",
      volume: "1523400.12",
      quoteVolume: "1854120310.55",
      openPrice: "1215.23",
      openTime: 1672026667803,
      closeTime: 1672026648425,
      bidPrice: 1218.3,
      bidQty: 2.1,
      askPrice: 1218.4,
      askQty: 1.7,
    },
    {
      symbol: "1000SHIB-USDT",
      priceChange: "-0.000158",
      priceChangePercent: "-1.77%",
      lastPrice: "0.008733",
      lastQty: "12000",
      highPrice: "0.008901",
      lowPrice: "0.008702",
      volume: "13211400000",
      quoteVolume: "115402300.18",
      openPrice: "0.008891",
      openTime: 1672026667803,
      closeTime: 1672026648425,
      bidPrice: 0.008732,
      bidQty: 50000,
      askPrice: 0.008734,
      askQty: 43000,
    },
  ];
}

export function bingxRoutes(): ReplayRoute[] {
  return [
    { path: "/openApi/swap/v2/quote/contracts", reply: { body: { code: 0, msg: "", data: bingxContractRows() } } },
    { path: "/openApi/swap/v2/quote/premiumIndex", reply: { body: { code: 0, msg: "", data: bingxPremiumIndexRows() } } },
    { path: "/openApi/swap/v2/quote/ticker", reply: { body: { code: 0, msg: "", timestamp: BINGX_UPDATE_TIME, data: bingxTickerRows() } } },
  ];
}
