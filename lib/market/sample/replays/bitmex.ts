/*
 * BitMEX's healthy answer to `GET /api/v1/instrument/active`, the one request a refresh makes.
 *
 * - REAL: XBTUSD, `fixtures/bitmex/instrument_XBTUSD_2024-11-24.json` (nautechsystems/nautilus_trader
 *   `crates/adapters/bitmex/test_data/http_get_instrument_xbtusd.json` @
 *   4b670146d44680575f1ac911b319fd3f7e18c4c5; `timestamp` 2024-11-24T23:33:19.034Z). It is the
 *   inverse perpetual (settles in XBt), so it shows the exclusion and the field types, and yields
 *   no snapshot.
 * - DOCUMENTED EXAMPLE: the USDT-settled linear perpetuals XBTUSDT and ETHUSDT and the dated future
 *   XBTUSDTZ24, built here in the real row's shape (its fields, units and types), with the linear
 *   fields as the LTCUSDT answer quoted in ccxt's bitmex.ts `fetchMarkets` has them (`settlCurrency`
 *   "USDt", `quoteToSettleMultiplier` 1000000, `underlyingToPositionMultiplier`, `isInverse` false;
 *   fixtures/bitmex/SOURCES.md). No recording of a linear BitMEX instrument is kept; every number
 *   in them is made up, consistent within its row (openValue = openInterest /
 *   underlyingToPositionMultiplier × markPrice × quoteToSettleMultiplier, turnover24h =
 *   foreignNotional24h × quoteToSettleMultiplier) and dated at the real row's moment.
 *
 * Not in the offline sample: the only real payload has no eligible market.
 */
import type { ReplayRoute } from "../../replay-fetch";
import { fixtureJson } from "../read-fixture";

type Row = Record<string, unknown>;

/** The real XBTUSD row's `timestamp`; the documented examples carry the same. */
export const BITMEX_TIME = Date.parse("2024-11-24T23:33:19.034Z");

/** DOCUMENTED EXAMPLE: a USDT-settled linear perpetual in the real row's shape. */
function linearPerpetual(real: Row, fields: Row): Row {
  return {
    ...real,
    typ: "FFWCSX",
    quoteCurrency: "USDT",
    settlCurrency: "USDt",
    multiplier: 1,
    underlyingToSettleMultiplier: null,
    quoteToSettleMultiplier: 1000000,
    isQuanto: false,
    isInverse: false,
    makerFee: -0.0001,
    takerFee: 0.0005,
    fundingQuoteSymbol: ".USDTBON8H",
    fundingInterval: "2000-01-01T08:00:00.000Z",
    timestamp: "2024-11-24T23:33:19.034Z",
    ...fields,
  };
}

export function bitmexInstrumentRows(): Row[] {
  const xbtusd = fixtureJson<Row>("bitmex/instrument_XBTUSD_2024-11-24.json");
  const xbtusdt = linearPerpetual(xbtusd, {
    symbol: "XBTUSDT",
    positionCurrency: "XBT",
    underlyingSymbol: "XBTT=",
    referenceSymbol: ".BXBTT",
    underlyingToPositionMultiplier: 1000000,
    lotSize: 1000,
    tickSize: 0.5,
    fundingBaseSymbol: ".XBTBON8H",
    fundingPremiumSymbol: ".XBTUSDTPI8H",
    fundingTimestamp: "2024-11-25T04:00:00.000Z",
    fundingRate: 0.000104,
    indicativeFundingRate: 0.000118,
    volume24h: 4120500000,
    homeNotional24h: 4120.5,
    foreignNotional24h: 401758227.15,
    turnover24h: 401758227150000,
    vwap: 97502.3,
    lastPrice: 97875.5,
    openInterest: 1843250000,
    openValue: 180401365887500,
    fairBasis: 5.15,
    fairPrice: 97871.35,
    markPrice: 97871.35,
    indicativeSettlePrice: 97866.2,
  });
  const ethusdt = linearPerpetual(xbtusd, {
    symbol: "ETHUSDT",
    rootSymbol: "ETH",
    positionCurrency: "ETH",
    underlying: "ETH",
    underlyingSymbol: "ETHT=",
    referenceSymbol: ".BETHT",
    underlyingToPositionMultiplier: 1000,
    lotSize: 1,
    tickSize: 0.01,
    fundingBaseSymbol: ".ETHBON8H",
    fundingPremiumSymbol: ".ETHUSDTPI8H",
    fundingTimestamp: "2024-11-25T04:00:00.000Z",
    // A negative rate: shorts pay longs.
    fundingRate: -0.000042,
    indicativeFundingRate: -0.000015,
    volume24h: 211350500,
    homeNotional24h: 211350.5,
    foreignNotional24h: 707981904.9,
    turnover24h: 707981904900000,
    vwap: 3349.8,
    lastPrice: 3362.1,
    openInterest: 52340125,
    openValue: 175937142977500,
    fairBasis: -0.18,
    fairPrice: 3361.42,
    markPrice: 3361.42,
    indicativeSettlePrice: 3361.6,
  });
  // A dated future: no funding at all.
  const future = linearPerpetual(xbtusd, {
    symbol: "XBTUSDTZ24",
    typ: "FFCCSX",
    expiry: "2024-12-27T12:00:00.000Z",
    positionCurrency: "XBT",
    underlyingToPositionMultiplier: 1000000,
    fundingBaseSymbol: "",
    fundingQuoteSymbol: "",
    fundingPremiumSymbol: "",
    fundingTimestamp: null,
    fundingInterval: null,
    fundingRate: null,
    indicativeFundingRate: null,
    markPrice: 98650.4,
    indicativeSettlePrice: 97866.2,
    openInterest: 0,
    openValue: 0,
  });
  return [xbtusd, xbtusdt, ethusdt, future];
}

export function bitmexRoutes(): ReplayRoute[] {
  return [{ path: "/api/v1/instrument/active", reply: { body: bitmexInstrumentRows() } }];
}
