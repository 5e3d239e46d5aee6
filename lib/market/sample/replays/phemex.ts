/*
 * Phemex (`https://api.phemex.com`): the healthy answers a refresh gets.
 *
 * Nothing here is a recording: no identifiable faithful capture of Phemex's product list or
 * tickers exists (lib/market/fixtures/phemex/SOURCES.md says what was searched; ccxt's stored
 * Phemex test files turn every number into a string).
 *
 * - DOCUMENTED EXAMPLE, unaltered (fixtures/phemex/*_ccxt-doc-example.json): the venue-doc
 *   examples ccxt 4.5.84 quotes in js/src/phemex.js — the BTCUSDT `perpProductsV2` row of
 *   /public/products (`fundingInterval` 28800 s), the /v1/exchange/public/products answer (the
 *   inverse BTCUSD, whose `fundingInterval` is 8, in hours) and the BTCUSDT row of
 *   /md/v2/ticker/24hr/all (2022-12-27 12:06:29Z, `timestamp` in nanoseconds).
 * - SYNTHETIC, in that documented shape with made-up numbers: the /public/products envelope
 *   around the BTCUSDT row (its `products` entry is ccxt's quoted BTCUSD row, whose quote misses a
 *   comma), the ETHUSDT (8h, negative), SOLUSDT (4h) and delisted OLDUSDT product rows, and their
 *   ticker rows, dated with the BTCUSDT row's timestamp.
 *
 * Phemex is not in the offline sample: none of this is a recording.
 */
import type { ReplayRoute } from "../../replay-fetch";
import { fixtureJson, fixtureText } from "../read-fixture";

type Row = Record<string, unknown>;

/** The documented ticker's `timestamp` (ns) in ms: 2022-12-27 12:06:29.065Z. */
export const PHEMEX_TICKER_TIME = 1672142789065;

/** A `perpProductsV2` row like the documented BTCUSDT one (SYNTHETIC values). */
function perpProduct(template: Row, symbol: string, base: string, code: number, overrides: Row): Row {
  const hours = Number(overrides.fundingInterval ?? template.fundingInterval) / 3600;
  return {
    ...template,
    symbol,
    code,
    displaySymbol: `${base} / USDT`,
    indexSymbol: `.${symbol}`,
    markSymbol: `.M${symbol}`,
    fundingRateSymbol: `.${symbol}FR`,
    fundingRate8hSymbol: `.${symbol}FR8H`,
    contractUnderlyingAssets: base,
    baseCurrency: base,
    majorSymbol: false,
    description: `${base}/USDT perpetual contracts are priced on the .${symbol} Index. Each contract is worth 1 ${base}. Funding fees are paid and received every ${hours} hours.`,
    ...overrides,
  };
}

/** A /md/v2/ticker/24hr/all row like the documented BTCUSDT one (SYNTHETIC values). */
function ticker(template: Row, symbol: string, overrides: Row): Row {
  return { ...template, symbol, ...overrides };
}

export function phemexRoutes(): ReplayRoute[] {
  const btcProduct = fixtureJson<Row>("phemex/perpProductsV2_BTCUSDT_ccxt-doc-example.json");
  const btcTicker = fixtureJson<Row>("phemex/ticker-v2_BTCUSDT_ccxt-doc-example.json");
  const products = {
    code: 0,
    msg: "",
    data: {
      currencies: [
        { currency: "BTC", name: "Bitcoin", code: 1, valueScale: 8, minValueEv: 1, maxValueEv: 5000000000000000000, needAddrTag: 0, status: "Listed", displayCurrency: "BTC", inAssetsDisplay: 1, perpetual: 0, stableCoin: 0, assetsPrecision: 8 },
        { currency: "USDT", name: "TetherUS", code: 3, valueScale: 8, minValueEv: 1, maxValueEv: 5000000000000000000, needAddrTag: 0, status: "Listed", displayCurrency: "USDT", inAssetsDisplay: 1, perpetual: 2, stableCoin: 1, assetsPrecision: 8 },
      ],
      products: [
        {
          symbol: "BTCUSD",
          code: 1,
          type: "Perpetual",
          displaySymbol: "BTC / USD",
          indexSymbol: ".BTC",
          markSymbol: ".MBTC",
          fundingRateSymbol: ".BTCFR",
          fundingRate8hSymbol: ".BTCFR8H",
          contractUnderlyingAssets: "USD",
          settleCurrency: "BTC",
          quoteCurrency: "USD",
          contractSize: 1.0,
          lotSize: 1,
          tickSize: 0.5,
          priceScale: 4,
          ratioScale: 8,
          pricePrecision: 1,
          minPriceEp: 5000,
          maxPriceEp: 10000000000,
          maxOrderQty: 1000000,
          description: "BTC/USD perpetual contracts are priced on the .BTC Index. Each contract is worth 1 USD. Funding fees are paid and received every 8 hours at UTC time: 00:00, 08:00 and 16:00.",
          status: "Listed",
          tipOrderQty: 1000000,
          listTime: 1574650800000,
          majorSymbol: true,
          defaultLeverage: "-10",
          fundingInterval: 28800,
          maxLeverage: 100,
        },
      ],
      perpProductsV2: [
        btcProduct,
        perpProduct(btcProduct, "ETHUSDT", "ETH", 41641, { tickSize: "0.01", pricePrecision: 2, qtyStepSize: "0.01", qtyPrecision: 2 }),
        perpProduct(btcProduct, "SOLUSDT", "SOL", 42341, { tickSize: "0.001", pricePrecision: 3, qtyStepSize: "0.1", qtyPrecision: 1, fundingInterval: 14400 }),
        perpProduct(btcProduct, "OLDUSDT", "OLD", 49941, { tickSize: "0.0001", pricePrecision: 4, status: "Delisted" }),
      ],
      riskLimits: [],
      leverages: [],
      riskLimitsV2: [],
      leveragesV2: [],
      ratioScale: 8,
      md5Checksum: "00000000000000000000000000000000",
    },
  };
  const tickers = {
    error: null,
    id: 0,
    result: [
      btcTicker,
      ticker(btcTicker, "ETHUSDT", {
        closeRp: "1219.35",
        fundingRateRr: "-0.00002311",
        highRp: "1230.1",
        indexPriceRp: "1219.61",
        lowRp: "1205.4",
        markPriceRp: "1219.52",
        openInterestRv: "25210.44",
        openRp: "1212.9",
        predFundingRateRr: "-0.00001",
        turnoverRv: "48001234.5",
        volumeRq: "39410.2",
      }),
      ticker(btcTicker, "SOLUSDT", {
        closeRp: "10.961",
        fundingRateRr: "0.00025",
        highRp: "11.5",
        indexPriceRp: "10.958",
        lowRp: "10.7",
        markPriceRp: "10.96",
        openInterestRv: "310250.1",
        openRp: "11.2",
        predFundingRateRr: "0.0003",
        turnoverRv: "2750000",
        volumeRq: "251000.5",
      }),
      ticker(btcTicker, "OLDUSDT", {
        closeRp: "0.5",
        fundingRateRr: "0",
        highRp: "0.5",
        indexPriceRp: "0.5",
        lowRp: "0.5",
        markPriceRp: "0.5",
        openInterestRv: "0",
        openRp: "0.5",
        predFundingRateRr: "0",
        turnoverRv: "0",
        volumeRq: "0",
      }),
    ],
  };
  return [
    { path: "/public/products", reply: { body: products } },
    { path: "/v1/exchange/public/products", reply: { body: fixtureText("phemex/v1-exchange-public-products_ccxt-doc-example.json") } },
    { path: "/md/v2/ticker/24hr/all", reply: { body: tickers } },
  ];
}
