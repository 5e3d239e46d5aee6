import type { ReplayRoute } from "@/lib/market/venues/replay-fetch";
import { fixtureJson, fixtureText } from "@/tests/fixtures/venues/read-fixture";
import { ASTER_TIME, asterRoutes } from "@/tests/fixtures/venues/replays/aster";
import { BACKPACK_TIME, backpackRoutes } from "@/tests/fixtures/venues/replays/backpack";
import { BINGX_NEXT_FUNDING, BINGX_UPDATE_TIME, bingxRoutes } from "@/tests/fixtures/venues/replays/bingx";
import { bitmartRoutes } from "@/tests/fixtures/venues/replays/bitmart";
import { BITMEX_TIME, bitmexRoutes } from "@/tests/fixtures/venues/replays/bitmex";
import { BITMEX_INSTRUMENT_COLUMNS } from "@/lib/market/venues/connectors/bitmex";
import { COINEX_NOW, coinexRoutes } from "@/tests/fixtures/venues/replays/coinex";
import { DERIBIT_TIME, deribitRoutes } from "@/tests/fixtures/venues/replays/deribit";
import { DYDX_RECORDED_AT, dydxRoutes } from "@/tests/fixtures/venues/replays/dydx";
import { EXTENDED_RECORDED_AT, extendedRoutes } from "@/tests/fixtures/venues/replays/extended";
import { GRVT_TIME, grvtRoutes } from "@/tests/fixtures/venues/replays/grvt";
import { HTX_FUNDING_TIME, HTX_FUNDING_TS, HTX_HOURLY_FUNDING_TIME, htxRoutes } from "@/tests/fixtures/venues/replays/htx";
import { KUCOINFUTURES_REPLAY_CLOCK, KUCOINFUTURES_SOL_NEXT_FUNDING, kucoinfuturesRoutes } from "@/tests/fixtures/venues/replays/kucoinfutures";
import { LIGHTER_RECORDED_AT, lighterRoutes } from "@/tests/fixtures/venues/replays/lighter";
import { MEXC_FUNDING_TIME, MEXC_NEXT_SETTLE, MEXC_TICKER_TIME, mexcRoutes } from "@/tests/fixtures/venues/replays/mexc";
import { PARADEX_SUMMARY_CREATED_AT, paradexRoutes } from "@/tests/fixtures/venues/replays/paradex";
import { PHEMEX_TICKER_TIME, phemexRoutes } from "@/tests/fixtures/venues/replays/phemex";
import { WOO_TIME, wooRoutes } from "@/tests/fixtures/venues/replays/woo";
import { KRAKENFUTURES_TIME, krakenfuturesRoutes } from "@/tests/fixtures/venues/replays/krakenfutures";
import { DERIVE_TIME, deriveRoutes, deriveTickerRoute } from "@/tests/fixtures/venues/replays/derive";
import { DRIFT_FUNDING_UPDATE, driftRoutes } from "@/tests/fixtures/venues/replays/drift";
import { PACIFICA_TIME, pacificaRoutes } from "@/tests/fixtures/venues/replays/pacifica";
import { BTSE_BTC_CLOSE, BTSE_ETH_CLOSE, BTSE_NEXT, BTSE_TIME, btseRoutes } from "@/tests/fixtures/venues/replays/btse";
import { WEEX_NEXT, WEEX_TIME, weexRoutes } from "@/tests/fixtures/venues/replays/weex";
import { ORDERLY_LAST_4H, ORDERLY_LAST_8H, ORDERLY_NEXT, ORDERLY_TIME, orderlyRoutes } from "@/tests/fixtures/venues/replays/orderly";
import {
  BITGET_TIME,
  BYBIT_TIME,
  OKX_TS,
  binance2024Routes,
  binance2025Routes,
  binanceFundingInfoRows,
  binanceTickerRows,
  bitgetRoutes,
  bybitRoutes,
  gateRoutes,
  hyperliquidRoutes,
  okxRoutes,
} from "@/tests/fixtures/venues/venue-replays";
import { HIP3_EXPECTATIONS } from "./hip3-expectations";
import type { VenueRow } from "./venue-row";
import { VARIATIONAL_TIME, variationalRoutes } from "@/tests/fixtures/venues/replays/variational";
import { HIBACHI_TIME, hibachiRoutes } from "@/tests/fixtures/venues/replays/hibachi";
import { EDGEX_CONTRACT_IDS, EDGEX_TIME, edgexRoutes } from "@/tests/fixtures/venues/replays/edgex";
import { ETHEREAL_BTC_ID, ETHEREAL_TIME, etherealRoutes } from "@/tests/fixtures/venues/replays/ethereal";
import { CRYPTOCOM_TIME, cryptocomRoutes, cryptocomValuationRoute } from "@/tests/fixtures/venues/replays/cryptocom";
import { WHITEBIT_0G_NEXT, WHITEBIT_NOW, whitebitRoutes } from "@/tests/fixtures/venues/replays/whitebit";
import { HITBTC_NEXT, HITBTC_TICKER_SYMBOLS, HITBTC_TIME, hitbtcRoutes } from "@/tests/fixtures/venues/replays/hitbtc";
import { TOOBIT_NEXT, TOOBIT_NOW, toobitRoutes } from "@/tests/fixtures/venues/replays/toobit";
import { APEX_NEXT, APEX_NOW, apexRoutes } from "@/tests/fixtures/venues/replays/apex";
import { BITFINEX_CONF_PATH, BITFINEX_NEXT_FUNDING, BITFINEX_TIME, bitfinexRoutes } from "@/tests/fixtures/venues/replays/bitfinex";

export type { Expectation, Reference, Variant, VenueRow } from "./venue-row";

/*
 * What every connector must make of its recorded answers, one row a venue (freqtrade's EXCHANGES
 * table in tests/exchange_online/conftest.py, offline). venue-contract.test.ts replays each row's
 * routes, and each variant's, and runs the same assertions on all of them; a trap only one venue
 * has is a named check in venue-quirks.ts. Each row's `fixture` says which payloads are REAL
 * recordings, DOCUMENTED EXAMPLES or SYNTHETIC (the replay modules under lib/market/sample say
 * which number is which).
 */

type Row = Record<string, unknown>;
/** `routes` without those on these paths or POST body types: those requests then fail. */
export function without(routes: ReplayRoute[], ...names: string[]): ReplayRoute[] {
  return routes.filter((route) => !names.includes(route.path) && !names.includes(String(route.body?.type)));
}

/** Only the routes on these paths. */
export function only(routes: ReplayRoute[], ...paths: string[]): ReplayRoute[] {
  return routes.filter((route) => paths.includes(route.path));
}

/** `routes` with every body on `path` replaced by `edit` of a parsed copy of it. */
export function editBody<T = Row>(routes: ReplayRoute[], path: string, edit: (body: T) => unknown): ReplayRoute[] {
  return routes.map((route) => {
    if (route.path !== path || !("body" in route.reply)) return route;
    const body = route.reply.body;
    const copy = (typeof body === "string" ? JSON.parse(body) : structuredClone(body)) as T;
    return { ...route, reply: { ...route.reply, body: edit(copy) } };
  });
}

/** `rows` with `patches[row[key]]` spread over the row of that key; a `null` patch drops the row. */
export function patchRows(rows: Row[], patches: Record<string, Row | null>, key = "symbol"): Row[] {
  return rows.flatMap((row) => {
    const patch = patches[String(row[key])];
    if (patch === null) return [];
    return [patch ? { ...row, ...patch } : row];
  });
}

const intervals = (hours: number, ids: string[]) => Object.fromEntries(ids.map((id) => [id, { fundingIntervalHours: hours }]));

export const VENUE_EXPECTATIONS: readonly VenueRow[] = [
  {
    venue: "aster",
    fixture:
      "REAL: the GNSUSD, EGL1USD and INJUSDT premiumIndex and fundingInfo rows (2025-09-25) and the BTCUSDT exchangeInfo row. " +
      "SYNTHETIC: BTC's, ETH's and ASTER's funding rows, the other exchangeInfo rows and the 24h tickers.",
    routes: asterRoutes,
    reference: {
      market: "BTC/USDT:USDT", venueMarketId: "BTCUSDT",
      fundingRate: 0.00007513,
      // As on Binance: the running estimate of the next settlement is the only rate quoted.
      predictedFundingRate: 0.00007513,
      rateCap: 0.003, rateFloor: -0.003,
      fundingIntervalHours: 8, fundingIntervalSource: "venue",
      nextFundingAt: Date.UTC(2025, 8, 25, 8),
      markPrice: 112987.4,
      indexPrice: 113001.52173913,
      // No all-symbol open-interest endpoint.
      openInterestUsd: null,
      volume24hUsd: 1835000000.5,
      // ccxt's base-tier taker fee for Aster.
      takerFee: 0.00035,
      observedAt: ASTER_TIME,
    },
    markets: {
      "ETH/USDT:USDT": { fundingRate: -0.00002136, rateCap: 0.02, rateFloor: -0.02 },
      "ASTER/USDT:USDT": { fundingIntervalHours: 4, fundingIntervalSource: "venue", nextFundingAt: Date.UTC(2025, 8, 25, 4) },
      // The REAL INJUSDT rows: caps sent as JSON numbers (0.03), not Binance's strings.
      "INJ/USDT:USDT": { fundingRate: 0.0001, rateCap: 0.03, rateFloor: -0.03, fundingIntervalHours: 8, markPrice: 12.24330596, volume24hUsd: 8100000 },
    },
    listed: ["ASTER/USDT:USDT", "BTC/USDT:USDT", "ETH/USDT:USDT", "INJ/USDT:USDT"],
    skipped: { GNSUSD: "USD-quoted", EGL1USD: "USD-quoted" },
    excluded: { notLinearPerp: 2, inactive: 0, unlisted: 0, invalid: 0, noFundingRow: 0 },
    // The futures exchangeInfo only: no spot exchangeInfo (ccxt's fetchMarkets loads both), no currencies, nothing signed.
    requests: ["GET /fapi/v1/exchangeInfo", "GET /fapi/v1/premiumIndex", "GET /fapi/v1/fundingInfo", "GET /fapi/v1/ticker/24hr"],
    variants: [
      {
        name: 'reads a rate of "0" as zero and a null cap as none (the REAL GNSUSD rows, listed as a USDT market)',
        routes: () =>
          editBody<{ symbols: Row[] }>(asterRoutes(), "/fapi/v1/exchangeInfo", (body) => ({
            ...body,
            symbols: patchRows(body.symbols, { GNSUSD: { quoteAsset: "USDT", marginAsset: "USDT" } }),
          })),
        markets: {
          "GNS/USDT:USDT": { venueMarketId: "GNSUSD", fundingRate: 0, rateCap: null, rateFloor: null, fundingIntervalHours: 8, fundingIntervalSource: "venue" },
        },
      },
      {
        name: "falls back on the settlement schedule and loses only the extras when fundingInfo and tickers fail",
        routes: () => only(asterRoutes(), "/fapi/v1/exchangeInfo", "/fapi/v1/premiumIndex"),
        markets: {
          // 01:38:55 → 08:00 fits only 8h; 01:38:55 → 04:00 fits only 4h.
          "BTC/USDT:USDT": {
            fundingRate: 0.00007513,
            fundingIntervalHours: 8, fundingIntervalSource: "schedule",
            rateCap: null, rateFloor: null,
            volume24hUsd: null,
            markPrice: 112987.4,
          },
          "ASTER/USDT:USDT": { fundingIntervalHours: 4, fundingIntervalSource: "schedule" },
        },
        warnings: ["fundingInfo", "ticker/24hr"],
      },
    ],
  },
  {
    venue: "backpack",
    fixture:
      "REAL: the markPrices rows of 0G … ARB (2025-10-03) and the ETH and ADA markets rows (fundingInterval re-typed as the " +
      "documented integer). SYNTHETIC: BTC's rows, the other markets rows, open interest and tickers.",
    routes: backpackRoutes,
    now: BACKPACK_TIME,
    reference: {
      market: "BTC/USDC:USDC", venueMarketId: "BTC_USDC_PERP",
      fundingRate: 0.0000521,
      predictedFundingRate: null,
      // fundingRateUpperBound/LowerBound "100"/"-100" basis points.
      rateCap: 0.01, rateFloor: -0.01,
      // fundingInterval 28800000 ms.
      fundingIntervalHours: 8, fundingIntervalSource: "venue",
      nextFundingAt: Date.UTC(2025, 9, 3, 16),
      markPrice: 120412.1,
      indexPrice: 120398.40551,
      // openInterest counts BTC.
      openInterestUsd: 118.41205 * 120412.1,
      volume24hUsd: 210500000.75,
      takerFee: null,
      // markPrices carries no time: the refresh's.
      observedAt: BACKPACK_TIME,
    },
    markets: {
      // The REAL ADA rows: 3600000 ms and ±150 bps on the market, the live hourly rate and prices.
      "ADA/USDC:USDC": {
        fundingRate: 0.0000125,
        fundingIntervalHours: 1,
        rateCap: 0.015, rateFloor: -0.015,
        nextFundingAt: Date.UTC(2025, 9, 3, 11),
        markPrice: 0.85812097,
        indexPrice: 0.85841807,
        openInterestUsd: 1850211 * 0.85812097,
      },
      "0G/USDC:USDC": { fundingRate: -0.000179157, fundingIntervalHours: 1 },
      "ETH/USDC:USDC": { fundingRate: -0.0000183, fundingIntervalHours: 8, rateCap: 0.01 },
    },
    listed: ["0G/USDC:USDC", "AAVE/USDC:USDC", "ADA/USDC:USDC", "BTC/USDC:USDC", "ETH/USDC:USDC"],
    skipped: {
      "2Z_USDC_PERP": "no markets row",
      AERO_USDC_PERP: "no markets row",
      APEX_USDC_PERP: "no markets row",
      APT_USDC_PERP: "no markets row",
      ARB_USDC_PERP: "no markets row",
    },
    excluded: { notLinearPerp: 0, inactive: 0, unlisted: 5, invalid: 0, noFundingRow: 0 },
    requests: ["GET /api/v1/markets?marketType=PERP", "GET /api/v1/markPrices", "GET /api/v1/openInterest", "GET /api/v1/tickers"],
    variants: [
      {
        name: "loses only open interest and volume when their endpoints fail",
        routes: () => only(backpackRoutes(), "/api/v1/markets", "/api/v1/markPrices"),
        markets: {
          "BTC/USDC:USDC": { fundingRate: 0.0000521, fundingIntervalHours: 8, markPrice: 120412.1, openInterestUsd: null, volume24hUsd: null },
        },
        warnings: ["openInterest", "tickers"],
      },
    ],
  },
  {
    venue: "binance",
    fixture:
      "REAL: the 2021 exchangeInfo and the 2024-11-27 premiumIndex; the 2025-06-17 premiumIndex (with a SYNTHETIC exchangeInfo) " +
      "in a variant; SYNTHETIC fundingInfo and 24h tickers in another.",
    routes: binance2024Routes,
    reference: {
      market: "BTC/USDT:USDT", venueMarketId: "BTCUSDT",
      fundingRate: 0.00013062,
      // Binance's one quoted rate is its forecast too; no bounds without a fundingInfo row.
      predictedFundingRate: 0.00013062,
      rateCap: null, rateFloor: null,
      // 16:00Z seen at 13:54Z leaves 4h or 8h; interestRate 0.0001 = 0.03 %/day × 8/24 picks 8h.
      fundingIntervalHours: 8, fundingIntervalSource: "interest-rate",
      nextFundingAt: 1732723200000,
      markPrice: 93951.8,
      indexPrice: 93902.89680851,
      openInterestUsd: null,
      volume24hUsd: null,
      takerFee: 0.0005,
      observedAt: 1732715655000,
    },
    listed: ["ADA", "BCH", "BTC", "ETC", "ETH", "LINK", "LTC", "TRX", "XRP"].map((base) => `${base}/USDT:USDT`),
    // The other 58 premiumIndex rows have no market in the 2021 list.
    excluded: { unlisted: 58 },
    requests: ["GET /fapi/v1/exchangeInfo", "GET /fapi/v1/premiumIndex", "GET /fapi/v1/fundingInfo", "GET /fapi/v1/ticker/24hr"],
    // fundingInfo and ticker/24hr were asked for, had no recording, and only cost warnings.
    warnings: ["fundingInfo", "ticker/24hr"],
    variants: [
      {
        name: "prefers fundingInfo, and reads absence from a loaded fundingInfo as the 8h default",
        // fundingInfo lists XRPUSDT at 4h (the schedule allows 4h or 8h at 13:54Z).
        routes: () => [
          { path: "/fapi/v1/fundingInfo", reply: { body: binanceFundingInfoRows({ XRPUSDT: 4 }) } },
          { path: "/fapi/v1/ticker/24hr", reply: { body: binanceTickerRows({ BTCUSDT: "15234567890.12", XRPUSDT: "bad" }) } },
          ...binance2024Routes(),
        ],
        markets: {
          // Bounds come only with a fundingInfo row: XRP's adjusted cap and floor, none stated for BTC. A garbled
          // volume figure is unknown; it does not cost XRP its funding row.
          XRPUSDT: { fundingIntervalHours: 4, fundingIntervalSource: "venue", rateCap: 0.02, rateFloor: -0.02, fundingRate: 0.0001, volume24hUsd: null },
          BTCUSDT: { fundingIntervalHours: 8, fundingIntervalSource: "venue-default", volume24hUsd: 15234567890.12, rateCap: null, rateFloor: null },
        },
        warnings: [],
      },
      {
        name: "the 2025-06-17 premiumIndex: 1h/2h/4h/8h intervals from the schedule, negative rates, bundled bases",
        routes: binance2025Routes,
        markets: {
          ...intervals(1, ["AXLUSDT", "WCTUSDT", "LPTUSDT", "SOPHUSDT", "SIGNUSDT", "RVNUSDT"]),
          FLMUSDT: { fundingIntervalHours: 2 },
          ...intervals(4, ["TONUSDT", "WIFUSDT", "ENAUSDT", "ENAUSDC", "ALTUSDT", "1000BONKUSDT"]),
          ...intervals(8, ["BTCUSDT", "ETHUSDT", "STGUSDT", "SOLUSDC"]),
          // BNB's interestRate is 0 (it names no interval) but 16:00Z at 08:38Z can only be 8h.
          BNBUSDT: { fundingRate: 0, fundingIntervalHours: 8, fundingIntervalSource: "schedule" },
          ALTUSDT: { fundingRate: -0.00205266, fundingIntervalHours: 4 },
          LPTUSDT: { fundingRate: -0.00017425, fundingIntervalHours: 1 },
          "1000PEPEUSDC": { market: "1000PEPE/USDC:USDC", base: "PEPE", venueBase: "1000PEPE", contractMultiplier: 1000, settle: "USDC", markPrice: 0.010518 },
        },
        skipped: {
          BTCUSDT_250627: "delivery",
          BTCUSDT_250926: "delivery",
          ETHUSDT_250627: "delivery",
          ETHUSDT_250926: "delivery",
          ETHBTC: "BTC-quoted",
          BNBBTC: "BTC-quoted",
          TROYUSDT: "settling",
          VIDTUSDT: "settling",
          OCEANUSDT: "settling",
        },
        marketCount: fixtureJson<unknown[]>("binance/premiumIndex_2025-06-17.json").length - 6 - 3,
        excluded: { notLinearPerp: 6, inactive: 3, unlisted: 0, invalid: 0, noFundingRow: 0 },
      },
    ],
  },
  {
    venue: "bingx",
    fixture:
      "DOCUMENTED EXAMPLE (no recording exists): BTC-USDT's contract, premiumIndex and ticker rows as ccxt's bingx.js quotes " +
      "them; the min/max bounds as FACTS.md describes them; the other rows SYNTHETIC in that shape.",
    routes: bingxRoutes,
    reference: {
      market: "BTC/USDT:USDT", venueMarketId: "BTC-USDT",
      fundingRate: 0.0001,
      predictedFundingRate: null,
      // minFundingRate / maxFundingRate are strings ("-0.003000").
      rateCap: 0.003, rateFloor: -0.003,
      // fundingIntervalHours is a number.
      fundingIntervalHours: 8, fundingIntervalSource: "venue",
      nextFundingAt: BINGX_NEXT_FUNDING,
      markPrice: 16884.5,
      indexPrice: 16886.9,
      // No all-contract open interest exists; it is not fetched one contract at a time.
      openInterestUsd: null,
      volume24hUsd: 4151395117.73,
      takerFee: 0.0005,
      observedAt: BINGX_UPDATE_TIME,
    },
    markets: {
      // A bundled contract on a 4h interval with a negative rate.
      "SHIB/USDT:USDT": null,
      "1000SHIB/USDT:USDT": {
        base: "SHIB",
        venueBase: "1000SHIB",
        contractMultiplier: 1000,
        fundingRate: -0.000412,
        fundingIntervalHours: 4,
        nextFundingAt: BINGX_NEXT_FUNDING - 4 * 3_600_000,
        rateCap: 0.02,
      },
    },
    listed: ["1000SHIB/USDT:USDT", "BTC/USDT:USDT", "ETH/USDT:USDT"],
    skipped: { "OLD-USDT": "closed to API trading" },
    excluded: { notLinearPerp: 0, inactive: 1, unlisted: 0, invalid: 0, noFundingRow: 0 },
    // The USDT-margined contract list only, every contract at once: no spot symbols, coin-margined contracts or currencies.
    requests: [
      "GET /openApi/swap/v2/quote/contracts?timestamp=…",
      "GET /openApi/swap/v2/quote/premiumIndex?timestamp=…",
      "GET /openApi/swap/v2/quote/ticker?timestamp=…",
    ],
    unstableQuery: ["timestamp"],
    variants: [
      {
        name: "loses only the volume when the ticker fails",
        routes: () => without(bingxRoutes(), "/openApi/swap/v2/quote/ticker"),
        markets: { "ETH/USDT:USDT": { fundingRate: 0.000085, fundingIntervalHours: 8, markPrice: 1218.42, volume24hUsd: null } },
        warnings: ["ticker"],
      },
      {
        name: "never assumes an interval the row does not state",
        routes: () =>
          editBody<{ data: Row[] }>(bingxRoutes(), "/openApi/swap/v2/quote/premiumIndex", (body) => ({
            ...body,
            data: patchRows(body.data, { "BTC-USDT": { fundingIntervalHours: undefined } }),
          })),
        markets: { "BTC/USDT:USDT": { fundingRate: 0.0001, fundingIntervalHours: null, fundingIntervalSource: null } },
      },
    ],
  },
  {
    venue: "bitget",
    fixture: "SYNTHETIC, except BTCUSDT's current-fund-rate row quoted in SOURCES.md.",
    routes: bitgetRoutes,
    reference: {
      market: "BTC/USDT:USDT", venueMarketId: "BTCUSDT",
      fundingRate: 0.000054,
      predictedFundingRate: null,
      rateCap: 0.003, rateFloor: -0.003,
      fundingIntervalHours: 8, fundingIntervalSource: "venue",
      nextFundingAt: 1785571200000,
      markPrice: 115010.5,
      indexPrice: 115000.1,
      openInterestUsd: 30000.5 * 115010.5,
      volume24hUsd: 4_500_000_000,
      takerFee: 0.0006,
      observedAt: BITGET_TIME,
    },
    markets: {
      "BTC/USDC:USDC": { venueMarketId: "BTCPERP", fundingRate: 0.00001, fundingIntervalHours: 1 },
      "PEPE/USDT:USDT": { base: "PEPE", fundingRate: -0.00031, fundingIntervalHours: 4 },
      // Listed, but absent from the funding list: kept without a rate.
      "ETH/USDT:USDT": { fundingRate: null, fundingIntervalHours: null, markPrice: null },
    },
    listed: ["BTC/USDC:USDC", "BTC/USDT:USDT", "ETH/USDT:USDT", "PEPE/USDT:USDT"],
    skipped: { BTCUSDT260626: "delivery", OLDUSDT: "offline" },
    excluded: { notLinearPerp: 1, inactive: 1, unlisted: 0, invalid: 0, noFundingRow: 1 },
    // Every product line's contracts (in parallel), then funding and tickers of the USDT and USDC lines only.
    requestsInAnyOrder: true,
    requests: [
      ...["COIN", "USDC", "SUSDT", "SCOIN", "SUSDC", "USDT"].map((line) => `GET /api/v2/mix/market/contracts?productType=${line}-FUTURES`),
      ...["current-fund-rate", "tickers"].flatMap((path) => ["USDT", "USDC"].map((line) => `GET /api/v2/mix/market/${path}?productType=${line}-FUTURES`)),
    ],
  },
  {
    venue: "bitmart",
    fixture:
      "DOCUMENTED EXAMPLE (no recording exists): BTCUSDT is BitMart's own example; the other rows are built in its shape. " +
      "No class in the installed ccxt: the plain-HTTP kind.",
    routes: bitmartRoutes,
    now: Date.UTC(2026, 2, 10, 13, 20),
    reference: {
      market: "BTC/USDT:USDT", venueMarketId: "BTCUSDT",
      // funding_rate and expected_funding_rate "0.0001".
      fundingRate: 0.0001,
      predictedFundingRate: 0.0001,
      // The contract list states no bounds (only the per-symbol funding-rate endpoint does).
      rateCap: null, rateFloor: null,
      // funding_interval_hours 8.
      fundingIntervalHours: 8, fundingIntervalSource: "venue",
      // 2026-03-10T16:00Z, in milliseconds.
      nextFundingAt: Date.UTC(2026, 2, 10, 16),
      // No mark price is published in the list; last_price is not one.
      markPrice: null,
      indexPrice: 67120.5,
      // open_interest_value and turnover_24h.
      openInterestUsd: 823456789.12,
      volume24hUsd: 8234567890.12,
      // No fee in the public list: unknown, not assumed.
      takerFee: null,
      // The list carries no time: when it was fetched.
      observedAt: Date.UTC(2026, 2, 10, 13, 20),
    },
    markets: { "ETH/USDT:USDT": { fundingRate: -0.000035, predictedFundingRate: -0.00002, fundingIntervalHours: 4, fundingIntervalSource: "venue" } },
    listed: ["BTC/USDT:USDT", "ETH/USDT:USDT"],
    skipped: { OLDUSDT: "delisted", BTCUSDT260327: "dated future" },
    excluded: { notLinearPerp: 1, inactive: 1, unlisted: 0, invalid: 0, noFundingRow: 0 },
    requests: ["GET /contract/public/details"],
    variants: [
      {
        name: "drops a row whose settlement time is garbled, and costs only the field for a garbled statistic",
        routes: () =>
          editBody<{ data: { symbols: Row[] } }>(bitmartRoutes(), "/contract/public/details", (body) => ({
            ...body,
            data: {
              symbols: patchRows(body.data.symbols, {
                ETHUSDT: { funding_time: "soon" },
                BTCUSDT: { index_price: "", open_interest_value: "n/a", turnover_24h: null, funding_interval_hours: 0 },
              }),
            },
          })),
        markets: {
          "ETH/USDT:USDT": null,
          "BTC/USDT:USDT": { fundingRate: 0.0001, fundingIntervalHours: null, fundingIntervalSource: null, indexPrice: null, openInterestUsd: null, volume24hUsd: null },
        },
        excluded: { invalid: 1 },
      },
      {
        name: "reads a contract of an answer without `status` as listed: only the future is excluded",
        routes: () =>
          editBody<{ data: { symbols: Row[] } }>(bitmartRoutes(), "/contract/public/details", (body) => ({
            ...body,
            data: { symbols: body.data.symbols.map((row) => ({ ...row, status: undefined })) },
          })),
        excluded: { notLinearPerp: 1, inactive: 0 },
      },
    ],
  },
  {
    venue: "bitmex",
    fixture:
      "REAL: the inverse XBTUSD recording (so excluded). DOCUMENTED EXAMPLES built in its shape: XBTUSDT, ETHUSDT and the " +
      "XBTUSDTZ24 future. No class in the installed ccxt: the plain-HTTP kind.",
    routes: bitmexRoutes,
    now: BITMEX_TIME + 4_000,
    reference: {
      market: "BTC/USDT:USDT", venueMarketId: "XBTUSDT",
      fundingRate: 0.000104,
      // indicativeFundingRate.
      predictedFundingRate: 0.000118,
      // No bound on the rate is stated in the instrument.
      rateCap: null, rateFloor: null,
      // "2000-01-01T08:00:00.000Z"
      fundingIntervalHours: 8, fundingIntervalSource: "venue",
      nextFundingAt: Date.UTC(2024, 10, 25, 4),
      markPrice: 97871.35,
      // indicativeSettlePrice.
      indexPrice: 97866.2,
      // openValue is in USDt (a millionth of a USDT): quoteToSettleMultiplier of them make a USDT.
      openInterestUsd: 180401365887500 / 1_000_000,
      // foreignNotional24h.
      volume24hUsd: 401758227.15,
      takerFee: 0.0005,
      // The instrument's own `timestamp`, not the clock.
      observedAt: BITMEX_TIME,
    },
    markets: {
      "ETH/USDT:USDT": {
        venueMarketId: "ETHUSDT",
        fundingRate: -0.000042,
        predictedFundingRate: -0.000015,
        fundingIntervalHours: 8,
        openInterestUsd: 175937142977500 / 1_000_000,
      },
    },
    listed: ["BTC/USDT:USDT", "ETH/USDT:USDT"],
    skipped: { XBTUSD: "inverse (the REAL recording)", XBTUSDTZ24: "dated future" },
    excluded: { notLinearPerp: 2, inactive: 0, unlisted: 0, invalid: 0, noFundingRow: 0 },
    // One request a refresh: the list is the markets and the funding payload, of the columns the
    // adapter reads (the route answers those alone: a field read and not asked would be missing above).
    requests: [`GET /api/v1/instrument/active?columns=${BITMEX_INSTRUMENT_COLUMNS.join(",")}`],
    variants: [
      {
        name: "is stale, not empty, on the REAL payload alone, which has no eligible market",
        routes: () => editBody<Row[]>(bitmexRoutes(), "/api/v1/instrument/active", (rows) => rows.filter((row) => row.symbol === "XBTUSD")),
        stale: /no usable funding rate among 1 markets/,
      },
      {
        name: "counts an instrument that is not Open as inactive",
        routes: () => editBody<Row[]>(bitmexRoutes(), "/api/v1/instrument/active", (rows) => patchRows(rows, { ETHUSDT: { state: "Closed" } })),
        markets: { "ETH/USDT:USDT": null },
        excluded: { inactive: 1 },
      },
      {
        name: "drops a row whose next settlement is garbled; a garbled statistic, or an interval not written as a date, costs that field",
        routes: () =>
          editBody<Row[]>(bitmexRoutes(), "/api/v1/instrument/active", (rows) =>
            patchRows(rows, {
              ETHUSDT: { fundingTimestamp: "soon" },
              XBTUSDT: { markPrice: "n/a", openValue: null, foreignNotional24h: undefined, fundingInterval: "8h" },
            }),
          ),
        markets: {
          "ETH/USDT:USDT": null,
          "BTC/USDT:USDT": { fundingRate: 0.000104, fundingIntervalHours: null, fundingIntervalSource: null, markPrice: null, openInterestUsd: null, volume24hUsd: null },
        },
        excluded: { invalid: 1 },
      },
    ],
  },
  {
    venue: "bybit",
    fixture: "SYNTHETIC; the BTC, ETH and SOL rates are the real Bybit rates Hyperliquid relayed in its 2026-09 predictedFundings capture.",
    routes: bybitRoutes,
    requestsInAnyOrder: true,
    reference: {
      market: "BTC/USDT:USDT", venueMarketId: "BTCUSDT",
      fundingRate: 0.0000501,
      // No forecast apart from its rate; the instrument states the bounds.
      predictedFundingRate: null,
      rateCap: 0.005, rateFloor: -0.005,
      fundingIntervalHours: 8, fundingIntervalSource: "venue",
      nextFundingAt: 1790524800000,
      markPrice: 84990.1,
      indexPrice: 84990.1,
      openInterestUsd: 1_000_000_000,
      volume24hUsd: 2_000_000_000,
      // Bybit's published base tier (ccxt states 0.06 %).
      takerFee: 0.00055,
      observedAt: BYBIT_TIME,
    },
    markets: {
      "ETH/USDT:USDT": { fundingRate: 0.00006392 },
      "1000PEPE/USDT:USDT": { base: "PEPE", contractMultiplier: 1000, fundingRate: -0.00012, fundingIntervalHours: 4 },
      // The ticker omits the hours: the instrument's fundingInterval minutes.
      "BTC/USDC:USDC": { venueMarketId: "BTCPERP", fundingIntervalHours: 8, fundingIntervalSource: "venue" },
    },
    listed: ["1000PEPE/USDT:USDT", "BTC/USDC:USDC", "BTC/USDT:USDT", "ETH/USDT:USDT", "SOL/USDT:USDT"],
    skipped: { "BTC-26DEC25": "delivery", NEWCOINUSDT: "pre-launch" },
    excluded: { notLinearPerp: 1, inactive: 1 },
    requests: [
      "GET /v5/market/instruments-info?category=linear&limit=1000",
      "GET /v5/market/instruments-info?category=linear&limit=1000&status=PreLaunch",
      "GET /v5/market/tickers?category=linear",
    ],
  },
  {
    venue: "coinex",
    fixture:
      "DOCUMENTED EXAMPLES (no recording exists): the BTCUSDT funding and ticker rows and the inverse BTCUSD market row ccxt " +
      "quotes from CoinEx's docs; everything else SYNTHETIC in that shape.",
    routes: coinexRoutes,
    now: COINEX_NOW,
    reference: {
      market: "BTC/USDT:USDT", venueMarketId: "BTCUSDT",
      // latest_funding_rate "0": a real zero, not a missing rate.
      fundingRate: 0,
      predictedFundingRate: 0.00021074,
      rateCap: 0.00375, rateFloor: -0.00375,
      // 1715731200000 (00:00Z) → 1715760000000 (08:00Z).
      fundingIntervalHours: 8, fundingIntervalSource: "schedule",
      nextFundingAt: 1715731200000,
      // The funding row's mark; the index only the ticker has.
      markPrice: 61602.22,
      indexPrice: 62443.05,
      // open_interest_volume (base units) of the market list × mark.
      openInterestUsd: 1250.5 * 61602.22,
      volume24hUsd: 180226025.69791713,
      // CoinEx's published VIP0 futures taker fee (ccxt's default placeholder is 0.1 %).
      takerFee: 0.0005,
      // Neither payload has a time.
      observedAt: COINEX_NOW,
    },
    markets: {
      "ETH/USDT:USDT": { fundingRate: -0.00005112, fundingIntervalHours: 8, volume24hUsd: 95012345.5 },
      // next_funding_time four hours after latest_funding_time.
      "DOGE/USDT:USDT": { fundingRate: 0.00031, fundingIntervalHours: 4, fundingIntervalSource: "schedule", indexPrice: null, volume24hUsd: null },
    },
    listed: ["BTC/USDT:USDT", "DOGE/USDT:USDT", "ETH/USDT:USDT"],
    skipped: { BTCUSD: "inverse", OLDUSDT: "closed" },
    excluded: { notLinearPerp: 1, inactive: 1, unlisted: 0, invalid: 0, noFundingRow: 0 },
    // The futures list alone (not ccxt's spot list or currencies), all markets in one request each.
    requests: ["GET /v2/futures/market", "GET /v2/futures/funding-rate", "GET /v2/futures/ticker"],
    variants: [
      {
        name: "loses only the ticker's fields when the ticker fails",
        routes: () => without(coinexRoutes(), "/v2/futures/ticker"),
        markets: {
          "BTC/USDT:USDT": { fundingRate: 0, fundingIntervalHours: 8, markPrice: 61602.22, indexPrice: null, volume24hUsd: null, openInterestUsd: 1250.5 * 61602.22 },
        },
        warnings: ["ticker"],
      },
      {
        name: "drops a row whose settlement time is garbled and keeps the rest",
        routes: () =>
          editBody<{ data: Row[] }>(coinexRoutes(), "/v2/futures/funding-rate", (body) => ({
            ...body,
            data: patchRows(body.data, { ETHUSDT: { latest_funding_time: "soon" } }, "market"),
          })),
        markets: { "ETH/USDT:USDT": null },
        excluded: { invalid: 1 },
      },
    ],
  },
  {
    venue: "deribit",
    fixture: "SYNTHETIC (no recording of a Deribit linear perpetual exists); the REAL BTC-PERPETUAL WebSocket ticker is a quirk check.",
    routes: deribitRoutes,
    reference: {
      market: "BTC/USDC:USDC", venueMarketId: "BTC_USDC-PERPETUAL",
      // current_funding, the rate accruing now: 0 inside the damper, per 8 hours.
      fundingRate: 0,
      predictedFundingRate: null,
      // Caps vary per instrument and are not published in these payloads.
      rateCap: null, rateFloor: null,
      fundingIntervalHours: 8, fundingIntervalSource: "continuous",
      // Funding is paid continuously: no settlement to wait for.
      nextFundingAt: null,
      markPrice: 92290.47,
      // Book summaries carry no index price.
      indexPrice: null,
      // Linear instruments count open interest in the base coin.
      openInterestUsd: 312.458 * 92290.47,
      volume24hUsd: 133840000,
      takerFee: 0.0005,
      observedAt: DERIBIT_TIME,
      // funding_8h: what the trailing 8 hours paid, per 8 hours.
      lastSettlement: { rate: 0.0000183, at: DERIBIT_TIME },
    },
    markets: {
      "ETH/USDC:USDC": { fundingRate: -0.0000095, lastSettlement: { rate: -0.0000412, at: DERIBIT_TIME } },
      // USDT-settled linear perpetuals come from the second book summary.
      "ETH/USDT:USDT": { fundingRate: 0, fundingIntervalSource: "continuous", lastSettlement: { rate: 0.0000051, at: DERIBIT_TIME } },
    },
    listed: ["BTC/USDC:USDC", "ETH/USDC:USDC", "ETH/USDT:USDT"],
    skipped: { "BTC-PERPETUAL": "coin-settled", "BTC-26DEC25": "dated" },
    excluded: { notLinearPerp: 2, inactive: 0, unlisted: 0, invalid: 0, noFundingRow: 0 },
    // Futures only (no options, no currencies), then one book per linear settlement currency.
    requests: [
      "GET /api/v2/public/get_instruments?kind=future",
      "GET /api/v2/public/get_book_summary_by_currency?currency=USDC&kind=future",
      "GET /api/v2/public/get_book_summary_by_currency?currency=USDT&kind=future",
    ],
    variants: [
      {
        name: "goes stale when either linear book fails",
        routes: () => [
          { path: "/api/v2/public/get_book_summary_by_currency", query: { currency: "USDT" }, reply: { status: 500, body: "Internal Server Error" } },
          ...deribitRoutes(),
        ],
        stale: /./,
      },
      {
        name: "loses only a garbled statistic",
        routes: () => [
          {
            path: "/api/v2/public/get_book_summary_by_currency",
            query: { currency: "USDT" },
            reply: {
              body: {
                jsonrpc: "2.0",
                result: [
                  {
                    instrument_name: "ETH_USDT-PERPETUAL",
                    mark_price: 3241.02,
                    open_interest: "n/a",
                    current_funding: 0.0000051,
                    funding_8h: 0.0000051,
                    creation_timestamp: DERIBIT_TIME,
                  },
                ],
              },
            },
          },
          ...deribitRoutes(),
        ],
        markets: { "ETH/USDT:USDT": { fundingRate: 0.0000051, openInterestUsd: null, volume24hUsd: null } },
      },
    ],
  },
  {
    venue: "dydx",
    fixture: "REAL: perpetualMarkets (mainnet, 2025-12-08, nautilus_trader capture). SYNTHETIC: the delisted market and garbled fields.",
    routes: dydxRoutes,
    now: DYDX_RECORDED_AT,
    reference: {
      market: "BTC/USDC:USDC", venueMarketId: "BTC-USD",
      // `nextFundingRate`: the running rate of the hourly tick to come, its only quoted rate.
      fundingRate: 0.00000254545454545455,
      predictedFundingRate: 0.00000254545454545455,
      // The indexer states no bound.
      rateCap: null, rateFloor: null,
      fundingIntervalHours: 1, fundingIntervalSource: "protocol",
      // 16:12Z → the 17:00Z tick.
      nextFundingAt: Date.UTC(2025, 11, 8, 17),
      markPrice: 89919.2,
      indexPrice: 89919.2,
      openInterestUsd: 381.7348 * 89919.2,
      volume24hUsd: 247500844.6834,
      // ccxt's dydx default taker fee (the indexer states none).
      takerFee: 0.0005,
      observedAt: DYDX_RECORDED_AT,
    },
    markets: { "SOL/USDC:USDC": { fundingRate: -0.00000143181818181818, markPrice: 135.3 } },
    listed: ["BTC/USDC:USDC", "ETH/USDC:USDC", "SOL/USDC:USDC"],
    excluded: { notLinearPerp: 0, inactive: 0, unlisted: 0, invalid: 0, noFundingRow: 0 },
    // A fresh client loads the list as its markets, then requests it raw for the rates (a kept client reuses the
    // markets: market-list-reuse.test.ts). Nothing else is asked for.
    requests: ["GET /v4/perpetualMarkets", "GET /v4/perpetualMarkets"],
    variants: [
      {
        name: "excludes markets that are not ACTIVE",
        routes: () =>
          editBody<{ markets: Record<string, Row> }>(dydxRoutes(), "/v4/perpetualMarkets", (body) => {
            body.markets["LUNA-USD"] = { ...body.markets["BTC-USD"], clobPairId: "9", ticker: "LUNA-USD", status: "FINAL_SETTLEMENT" };
            return body;
          }),
        markets: { "LUNA/USDC:USDC": null },
        excluded: { inactive: 1 },
      },
      {
        name: "drops a market whose rate is garbled, and a garbled statistic costs that field only",
        routes: () =>
          editBody<{ markets: Record<string, Row> }>(dydxRoutes(), "/v4/perpetualMarkets", (body) => {
            body.markets["ETH-USD"] = { ...body.markets["ETH-USD"], nextFundingRate: "n/a" };
            body.markets["SOL-USD"] = { ...body.markets["SOL-USD"], volume24H: "lots", openInterest: null };
            return body;
          }),
        markets: {
          "ETH/USDC:USDC": null,
          "SOL/USDC:USDC": { fundingRate: -0.00000143181818181818, volume24hUsd: null, openInterestUsd: null, markPrice: 135.3 },
        },
        excluded: { invalid: 1 },
      },
    ],
  },
  {
    venue: "extended",
    fixture: "REAL: the BTC-USD market (mainnet info/markets, 2026-04-29, ccxt's static recording). SYNTHETIC: ETH-USD and every edit.",
    routes: extendedRoutes,
    now: EXTENDED_RECORDED_AT,
    reference: {
      market: "BTC/USDC:USDC", venueMarketId: "BTC-USD",
      fundingRate: 0.000012,
      predictedFundingRate: null,
      // `hourlyFundingRateCap` "0.25" is percent: ±0.0025 an hour.
      rateCap: 0.0025, rateFloor: -0.0025,
      fundingIntervalHours: 1, fundingIntervalSource: "protocol",
      // `marketStats.nextFundingRate` is this time, not a rate.
      nextFundingAt: 1777446000000,
      markPrice: 77006.091897999984,
      indexPrice: 77050.739529925005,
      // Already collateral amounts (openInterestBase 1491.33012 BTC × mark ≈ the same).
      openInterestUsd: 114851569.088316,
      volume24hUsd: 231216165.6666,
      // Extended's published flat taker fee (ccxt's placeholder is 0.2 %; the market list states none).
      takerFee: 0.00025,
      observedAt: EXTENDED_RECORDED_AT,
    },
    markets: { "ETH/USDC:USDC": { fundingRate: -0.000004, fundingIntervalHours: 1 } },
    listed: ["BTC/USDC:USDC", "ETH/USDC:USDC"],
    excluded: { notLinearPerp: 0, inactive: 0, unlisted: 0, invalid: 0, noFundingRow: 0 },
    // No info/assets (currencies are not loaded); a fresh client loads the list as its markets, then raw for the rates.
    requests: ["GET /api/v1/info/markets", "GET /api/v1/info/markets"],
    variants: [
      {
        name: "a garbled cap costs the bounds only; a garbled rate costs the market",
        routes: () =>
          editBody<{ data: Row[] }>(extendedRoutes(), "/api/v1/info/markets", (body) => ({
            ...body,
            data: body.data.map((row) =>
              row.name === "BTC-USD"
                ? { ...row, tradingConfig: { ...(row.tradingConfig as Row), hourlyFundingRateCap: "none" } }
                : { ...row, marketStats: { ...(row.marketStats as Row), fundingRate: "NaN%" } },
            ),
          })),
        markets: {
          "BTC/USDC:USDC": { fundingRate: 0.000012, rateCap: null, rateFloor: null, markPrice: 77006.091897999984 },
          "ETH/USDC:USDC": null,
        },
        excluded: { invalid: 1 },
      },
      {
        name: "excludes markets not ACTIVE and spot markets",
        routes: () =>
          editBody<{ data: Row[] }>(extendedRoutes(), "/api/v1/info/markets", (body) => {
            const btc = body.data[0] ?? {};
            return {
              ...body,
              data: [
                ...body.data,
                { ...btc, name: "OLD-USD", assetName: "OLD", status: "DELISTED", active: false },
                { ...btc, name: "BTCSPOT-USD", assetName: "BTCSPOT", type: "SPOT" },
              ],
            };
          }),
        listed: ["BTC/USDC:USDC", "ETH/USDC:USDC"],
        excluded: { inactive: 1, notLinearPerp: 1 },
      },
    ],
  },
  {
    venue: "gate",
    fixture: "SYNTHETIC, in the units SOURCES.md records (seconds for interval and next settlement).",
    routes: gateRoutes,
    now: 1790517000000,
    reference: {
      market: "BTC/USDT:USDT", venueMarketId: "BTC_USDT",
      fundingRate: 0.000075,
      // funding_rate_indicative is the forecast; no funding_rate_limit in this contract row.
      predictedFundingRate: 0.000075,
      rateCap: null, rateFloor: null,
      fundingIntervalHours: 8, fundingIntervalSource: "venue",
      nextFundingAt: 1790524800000,
      markPrice: 84985.2,
      indexPrice: 84990,
      // Contracts of 0.0001 BTC.
      openInterestUsd: 120000000 * 0.0001 * 84985.2,
      volume24hUsd: 1_500_000_000,
      takerFee: 0.0005,
      observedAt: 1790517000000,
    },
    markets: {
      "ETH/USDT:USDT": { fundingIntervalHours: 1, nextFundingAt: 1790517600000 },
      // 7200 s: an interval ccxt's own table does not know.
      "DOGE/USDT:USDT": { fundingIntervalHours: 2 },
      "PEPE/USDT:USDT": { fundingRate: -0.00025, fundingIntervalHours: 4, contractMultiplier: 1 },
      "OLD/USDT:USDT": null,
    },
    listed: ["BTC/USDT:USDT", "DOGE/USDT:USDT", "ETH/USDT:USDT", "PEPE/USDT:USDT"],
    skipped: { OLD_USDT: "in delisting" },
    excluded: { notLinearPerp: 0, inactive: 1, unlisted: 0, invalid: 0, noFundingRow: 0 },
    // A fresh client loads the contract list as its markets, then requests it raw for the rates.
    requests: ["GET /api/v4/futures/usdt/contracts", "GET /api/v4/futures/usdt/contracts", "GET /api/v4/futures/usdt/tickers"],
    variants: [
      {
        name: "loses only the volume when the tickers fail",
        routes: () => without(gateRoutes(), "/api/v4/futures/usdt/tickers"),
        markets: { "BTC/USDT:USDT": { fundingRate: 0.000075, volume24hUsd: null } },
        warnings: ["tickers"],
      },
    ],
  },
  {
    venue: "grvt",
    fixture:
      "REAL: the all_instruments rows (AAVE, BTC, ADA, ETH, SUI). DOCUMENTED EXAMPLE: the BTC ticker (ccxt's grvt.js " +
      "fetchTicker comment). SYNTHETIC: the other tickers.",
    routes: grvtRoutes,
    reference: {
      market: "BTC/USDT:USDT", venueMarketId: "BTC_USDT_Perp",
      // funding_rate "0.0037" is in percentage points: 0.0037 % per 8h.
      fundingRate: 0.000037,
      predictedFundingRate: null,
      // adjusted_funding_rate_cap/floor "0.3"/"-0.3": ±0.3 %.
      rateCap: 0.003, rateFloor: -0.003,
      fundingIntervalHours: 8, fundingIntervalSource: "venue",
      // next_funding_time "1764777600000000000" ns: 2025-12-03 16:00Z.
      nextFundingAt: Date.UTC(2025, 11, 3, 16),
      markPrice: 92697.300078773,
      indexPrice: 92727.818122278,
      openInterestUsd: 1523.218935908 * 92697.300078773,
      // Taker buys plus taker sells, in USDT.
      volume24hUsd: 266955739.1606 + 268170211.7109,
      // GRVT's published Level 1 futures taker fee (ccxt states none).
      takerFee: 0.0005,
      // event_time "1764774730025055205" ns.
      observedAt: GRVT_TIME,
    },
    markets: {
      "ETH/USDT:USDT": { fundingRate: -0.000021, rateCap: 0.003 },
      // "0.75" on the REAL AAVE and SUI rows: ±0.75 %.
      "AAVE/USDT:USDT": { fundingRate: 0.000046, rateCap: 0.0075, rateFloor: -0.0075 },
      "SUI/USDT:USDT": { fundingIntervalHours: 8, fundingIntervalSource: "venue" },
    },
    listed: ["AAVE/USDT:USDT", "ADA/USDT:USDT", "BTC/USDT:USDT", "ETH/USDT:USDT", "SUI/USDT:USDT"],
    excluded: { notLinearPerp: 0, inactive: 0, unlisted: 0, invalid: 0, noFundingRow: 0 },
    // Active instruments only, then one ticker per perpetual: GRVT has no all-instrument ticker.
    requests: [
      'POST /full/v1/all_instruments {"is_active":true}',
      ...["AAVE_USDT_Perp", "BTC_USDT_Perp", "ADA_USDT_Perp", "ETH_USDT_Perp", "SUI_USDT_Perp"].map(
        (instrument) => `POST /full/v1/ticker {"instrument":"${instrument}"}`,
      ),
    ],
    variants: [
      {
        name: "costs a market its rate, not the venue, when its ticker fails or answers for another instrument",
        routes: () => [
          grvtTicker("AAVE_USDT_Perp", { status: 500, body: { code: 1002, message: "Internal Server Error", status: 500 } }),
          grvtTicker("ADA_USDT_Perp", { body: { result: { instrument: "BTC_USDT_Perp", funding_rate: "0.0037" } } }),
          ...grvtRoutes(),
        ],
        markets: {
          "AAVE/USDT:USDT": { fundingRate: null, markPrice: null, fundingIntervalHours: null },
          "ADA/USDT:USDT": { fundingRate: null },
          "BTC/USDT:USDT": { fundingRate: 0.000037 },
        },
        excluded: { noFundingRow: 2 },
        warnings: [/^ticker: 2 of 5 failed \(AAVE_USDT_Perp, ADA_USDT_Perp\): /],
      },
      {
        name: "drops a row whose next settlement is garbled",
        routes: () => [
          grvtTicker("ETH_USDT_Perp", { body: { result: { instrument: "ETH_USDT_Perp", funding_rate: "-0.0021", next_funding_time: "soon" } } }),
          ...grvtRoutes(),
        ],
        markets: { "ETH/USDT:USDT": null },
        excluded: { invalid: 1 },
      },
    ],
  },
  {
    venue: "htx",
    fixture:
      "DOCUMENTED EXAMPLES (no recording exists), as ccxt's htx.js quotes them: the linear future contract row, BTC-USDT's " +
      "current funding-rate answer and open-interest row, unaltered; SYNTHETIC rows in their shape.",
    routes: htxRoutes,
    reference: {
      market: "BTC/USDT:USDT", venueMarketId: "BTC-USDT",
      fundingRate: 0.000083024939363172,
      // estimated_rate is null (deprecated); the bounds are the documented min/max_funding_rate.
      predictedFundingRate: null,
      rateCap: 0.00375, rateFloor: -0.00375,
      // The documented answer's next_funding_time − funding_time: 16:00Z − 08:00Z.
      fundingIntervalHours: 8, fundingIntervalSource: "schedule",
      // funding_time is the settlement the current rate is charged at.
      nextFundingAt: HTX_FUNDING_TIME,
      // No all-contract mark or index price is read.
      markPrice: null,
      indexPrice: null,
      // value and trade_turnover are in USDT.
      openInterestUsd: 2063137924.9668,
      volume24hUsd: 723600792.7222,
      takerFee: 0.0005,
      observedAt: HTX_FUNDING_TS,
    },
    markets: {
      "DOGE/USDT:USDT": { fundingRate: -0.000215, fundingIntervalHours: 4, fundingIntervalSource: "schedule", rateCap: 0.02 },
      // No current funding-rate row: its 05:00Z settlement against the batch payload's 04:35Z fits only the hourly schedule.
      "LSK/USDT:USDT": {
        fundingRate: -0.000402,
        fundingIntervalHours: 1, fundingIntervalSource: "schedule",
        nextFundingAt: HTX_HOURLY_FUNDING_TIME,
        openInterestUsd: null,
      },
    },
    listed: ["BTC/USDT:USDT", "DOGE/USDT:USDT", "ETH/USDT:USDT", "LSK/USDT:USDT"],
    skipped: { "BTC-USDT-211231": "dated linear future", "OLD-USDT": "suspended" },
    excluded: { notLinearPerp: 1, inactive: 1, unlisted: 0, invalid: 0, noFundingRow: 0 },
    // USDT-margined contracts only (no spot symbols, coin-margined swaps or futures, no currencies); the listed
    // contracts' current funding rates ten a request.
    requests: [
      "GET /linear-swap-api/v1/swap_contract_info?business_type=all",
      "GET /linear-swap-api/v1/swap_batch_funding_rate",
      "GET /linear-swap-api/v1/swap_open_interest?business_type=swap",
      "GET /v5/market/funding_rate?contract_code=BTC-USDT,ETH-USDT,DOGE-USDT,LSK-USDT,OLD-USDT",
    ],
    variants: [
      {
        name: "loses only open interest and volume when their list fails",
        routes: () => without(htxRoutes(), "/linear-swap-api/v1/swap_open_interest"),
        markets: { "ETH/USDT:USDT": { fundingRate: 0.0001, fundingIntervalHours: 8, openInterestUsd: null, volume24hUsd: null } },
        warnings: ["open-interest"],
      },
      {
        name: "goes stale on an error status in a 200",
        routes: () => [
          {
            path: "/linear-swap-api/v1/swap_batch_funding_rate",
            reply: { body: { status: "error", err_code: 1032, err_msg: "The number of access exceeded the limit.", ts: HTX_FUNDING_TS } },
          },
          ...htxRoutes(),
        ],
        stale: /./,
      },
    ],
  },
  {
    venue: "hyperliquid",
    fixture: "REAL: metaAndAssetCtxs and predictedFundings (Yassi80/hyperliquid fixtures, 2026-09); SYNTHETIC: the kPEPE entry of a variant.",
    routes: hyperliquidRoutes,
    now: Date.UTC(2026, 8, 27, 13, 10),
    reference: {
      market: "BTC/USDC:USDC", venueMarketId: "0",
      fundingRate: 0.0000125,
      // HlPerp's entry of predictedFundings; the protocol caps funding at 4 % an hour both ways.
      predictedFundingRate: 0.0000125,
      rateCap: 0.04, rateFloor: -0.04,
      fundingIntervalHours: 1, fundingIntervalSource: "venue",
      nextFundingAt: 1790517600000,
      markPrice: 84981,
      indexPrice: 85005,
      openInterestUsd: 38359.47984 * 84981,
      volume24hUsd: 1026494754.6038066149,
      takerFee: 0.00045,
      observedAt: Date.UTC(2026, 8, 27, 13, 10),
    },
    listed: ["BTC/USDC:USDC", "ETH/USDC:USDC", "HYPE/USDC:USDC", "SOL/USDC:USDC"],
    excluded: { notLinearPerp: 0, inactive: 0, unlisted: 0, invalid: 0, noFundingRow: 0 },
    requests: [
      // The list, then the contexts again (the list is kept for minutes; the funding must not be).
      'POST /info {"type":"metaAndAssetCtxs"}',
      'POST /info {"type":"metaAndAssetCtxs"}',
      'POST /info {"type":"predictedFundings"}',
    ],
    variants: [
      {
        name: "falls back on the protocol's hourly settlement when predictedFundings fails",
        routes: () => without(hyperliquidRoutes(), "predictedFundings"),
        markets: { "ETH/USDC:USDC": { fundingIntervalHours: 1, fundingIntervalSource: "protocol", nextFundingAt: Date.UTC(2026, 8, 27, 14) } },
        warnings: ["predictedFundings"],
      },
      {
        name: "normalises kPEPE (a SYNTHETIC universe entry appended to the real capture)",
        routes: () => [
          { method: "POST", path: "/info", body: { type: "metaAndAssetCtxs" }, reply: { body: metaWithKPepe() } },
          ...hyperliquidRoutes(),
        ],
        markets: { "KPEPE/USDC:USDC": { venueBase: "kPEPE", base: "PEPE", contractMultiplier: 1000, fundingRate: -0.0000217, fundingIntervalSource: "protocol" } },
      },
    ],
  },
  {
    venue: "kucoinfutures",
    fixture:
      "REAL: the contracts/active rows of XBTUSDTM, XBTUSDM and ETHUSDTM (ccxt's markets dump, late October 2023). SYNTHETIC: " +
      "SOLUSDTM in today's field set. DOCUMENTED EXAMPLE: the bounds list (XBTUSDTM only). The clock is assumed, not recorded.",
    routes: kucoinfuturesRoutes,
    now: KUCOINFUTURES_REPLAY_CLOCK,
    reference: {
      market: "BTC/USDT:USDT",
      // ccxt spells KuCoin's XBT as BTC; the venue's id keeps it.
      venueMarketId: "XBTUSDTM",
      fundingRate: 0.000198,
      predictedFundingRate: 0.000308,
      // The documented bounds row's, not its rate (-0.000004): the rate is the contract list's.
      rateCap: 0.003, rateFloor: -0.003,
      // fundingRateGranularity 28800000 ms.
      fundingIntervalHours: 8, fundingIntervalSource: "venue",
      // nextFundingRateTime 11057610 is a countdown: the clock plus it, on the hour (16:00Z).
      nextFundingAt: Date.UTC(2023, 9, 31, 16),
      markPrice: 34448.19,
      indexPrice: 34436.93,
      // openInterest "10964478" contracts of 0.001 BTC.
      openInterestUsd: 10964478 * 0.001 * 34448.19,
      volume24hUsd: 485557940.75860596,
      takerFee: 0.0006,
      // The contract list carries no time.
      observedAt: KUCOINFUTURES_REPLAY_CLOCK,
    },
    markets: {
      // Not in the documented bounds example.
      "ETH/USDT:USDT": {
        fundingRate: 0.000149,
        predictedFundingRate: 0.000234,
        rateCap: null, rateFloor: null,
        nextFundingAt: Date.UTC(2023, 9, 31, 16),
        openInterestUsd: 6912355 * 0.01 * 1803.76,
      },
      // Today's rows: a stated next settlement, a 4h granularity and no forecast.
      "SOL/USDT:USDT": {
        venueMarketId: "SOLUSDTM",
        fundingRate: -0.000213,
        predictedFundingRate: null,
        fundingIntervalHours: 4, fundingIntervalSource: "venue",
        nextFundingAt: KUCOINFUTURES_SOL_NEXT_FUNDING,
      },
    },
    listed: ["BTC/USDT:USDT", "ETH/USDT:USDT", "SOL/USDT:USDT"],
    skipped: { XBTUSDM: "inverse (settled in BTC) although it has funding fields" },
    excluded: { notLinearPerp: 1, inactive: 0, unlisted: 0, invalid: 0, noFundingRow: 0 },
    // Contracts only (no spot symbols, spot tickers or currencies): the list as markets, then raw for the rates.
    requests: ["GET /api/v1/contracts/active", "GET /api/v1/contracts/active", "GET /api/ua/v2/market/funding-rate"],
    variants: [
      {
        name: "loses only the bounds when the unified funding list fails",
        routes: () => only(kucoinfuturesRoutes(), "/api/v1/contracts/active"),
        markets: { "BTC/USDT:USDT": { fundingRate: 0.000198, fundingIntervalHours: 8, rateCap: null, rateFloor: null, markPrice: 34448.19 } },
        warnings: ["funding-rate bounds"],
      },
      {
        name: "drops a contract whose countdown is garbled and keeps the rest",
        routes: () =>
          editBody<{ data: Row[] }>(kucoinfuturesRoutes(), "/api/v1/contracts/active", (body) => ({
            ...body,
            data: patchRows(body.data, { ETHUSDTM: { nextFundingRateTime: "soon" } }),
          })),
        markets: { "ETH/USDT:USDT": null, "BTC/USDT:USDT": { fundingRate: 0.000198 } },
        excluded: { invalid: 1 },
      },
    ],
  },
  {
    venue: "lighter",
    fixture:
      "REAL: the ETH orderBookDetails row (2026-05-05) and the funding-rates rows (ETH 2025-11, and a late-2025 excerpt with " +
      "Binance/Bybit rows and Lighter's TON). SYNTHETIC: the BTC market and its rate, and every edit.",
    routes: lighterRoutes,
    now: LIGHTER_RECORDED_AT,
    reference: {
      market: "ETH/USDC:USDC", venueMarketId: "0",
      // Lighter's own 8h-scaled rate, 0.00009599999999999999, is 0.000012 for the hour it settles.
      fundingRate: 0.000012,
      predictedFundingRate: null,
      rateCap: null, rateFloor: null,
      fundingIntervalHours: 1, fundingIntervalSource: "protocol",
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
    },
    markets: { "BTC/USDC:USDC": { fundingRate: 0.000008, fundingIntervalHours: 1 } },
    listed: ["BTC/USDC:USDC", "ETH/USDC:USDC"],
    // TON (market 12) has a Lighter row but no market here; Binance's and Bybit's rows are not Lighter's.
    excluded: { unlisted: 1, invalid: 0, noFundingRow: 0 },
    // No assetDetails: currencies are not loaded.
    // The list, then its prices again beside the funding (the list is kept for minutes).
    requests: ["GET /api/v1/orderBookDetails", "GET /api/v1/funding-rates", "GET /api/v1/orderBookDetails"],
    variants: [
      {
        name: "never takes another venue's row of the same market for Lighter's",
        // Binance's ETH row listed first, under Lighter's market id 0.
        routes: () =>
          editBody<{ funding_rates: Row[] }>(lighterRoutes(), "/api/v1/funding-rates", (body) => ({
            ...body,
            funding_rates: [{ market_id: 0, exchange: "binance", symbol: "ETH", rate: 0.0005 }, ...body.funding_rates],
          })),
        markets: { "ETH/USDC:USDC": { fundingRate: 0.000012 } },
      },
      {
        name: "uses the mark and index prices where orderBookDetails sends them (SYNTHETIC fields)",
        routes: () =>
          editBody<{ order_book_details: Row[] }>(lighterRoutes(), "/api/v1/orderBookDetails", (body) => ({
            ...body,
            order_book_details: patchRows(body.order_book_details, { ETH: { mark_price: "2360.85", index_price: "2361.02" } }),
          })),
        markets: { "ETH/USDC:USDC": { markPrice: 2360.85, indexPrice: 2361.02, openInterestUsd: 27350.8981 * 2360.85 } },
      },
      {
        name: "excludes inactive perps and spot markets",
        routes: () =>
          editBody<{ funding_rates: Row[] }>(
            editBody<{ order_book_details: Row[]; spot_order_book_details: Row[] }>(lighterRoutes(), "/api/v1/orderBookDetails", (body) => {
              const eth = body.order_book_details[0] ?? {};
              return {
                ...body,
                order_book_details: [...body.order_book_details, { ...eth, symbol: "OLD", market_id: 77, status: "inactive" }],
                spot_order_book_details: [{ ...eth, symbol: "ETH/USDC", market_id: 2048, market_type: "spot" }],
              };
            }),
            "/api/v1/funding-rates",
            (body) => ({ ...body, funding_rates: [...body.funding_rates, { market_id: 77, exchange: "lighter", symbol: "OLD", rate: 0.0001 }] }),
          ),
        markets: { "OLD/USDC:USDC": null },
        excluded: { inactive: 1, notLinearPerp: 1 },
      },
      {
        name: "is stale when the answer has no row of Lighter's own",
        routes: () =>
          editBody<{ funding_rates: Row[] }>(lighterRoutes(), "/api/v1/funding-rates", (body) => ({
            ...body,
            funding_rates: body.funding_rates.filter((row) => row.exchange !== "lighter"),
          })),
        stale: /./,
      },
      {
        name: "goes stale on the REAL 2025-11 market list, whose rows lack `market_type` (ccxt 4.5.84 then sees no perpetual)",
        routes: () => [
          { path: "/api/v1/orderBookDetails", reply: { body: fixtureJson<Row>("lighter/orderBookDetails_ETH_2025-11.json") } },
          ...without(lighterRoutes(), "/api/v1/orderBookDetails"),
        ],
        stale: /no usable funding rate/,
      },
    ],
  },
  {
    venue: "mexc",
    fixture:
      "DOCUMENTED EXAMPLES (no recording exists) in the shape ccxt's mexc.js quotes: BTC_USDT's contract and funding rows " +
      "and ETH_USDT's ticker row verbatim, the other rows SYNTHETIC in that shape.",
    routes: mexcRoutes,
    reference: {
      market: "BTC/USDT:USDT", venueMarketId: "BTC_USDT",
      fundingRate: 0.000014,
      // MEXC publishes no forecast apart from the rate.
      predictedFundingRate: null,
      rateCap: 0.003, rateFloor: -0.003,
      // collectCycle 8 (hours).
      fundingIntervalHours: 8, fundingIntervalSource: "venue",
      nextFundingAt: MEXC_NEXT_SETTLE,
      // fairPrice is MEXC's mark.
      markPrice: 57310.2,
      indexPrice: 57301.33,
      // holdVol 41250300 contracts of 0.0001 BTC.
      openInterestUsd: 41250300 * 0.0001 * 57310.2,
      volume24hUsd: 562118330.25,
      // MEXC's published USDT-M taker fee (ccxt states 0.06 %).
      takerFee: 0.0004,
      // The prices are the ticker's, so the ticker's time, not the funding row's.
      observedAt: MEXC_TICKER_TIME,
    },
    markets: {
      "ETH/USDT:USDT": { markPrice: 3581.08, openInterestUsd: 5832946 * 0.01 * 3581.08, volume24hUsd: 141331823.5755 },
      // A 4h cycle with bounds ten times BTC's.
      "XAU/USDT:USDT": { fundingRate: -0.000125, fundingIntervalHours: 4, rateCap: 0.03, rateFloor: -0.03 },
    },
    listed: ["BTC/USDT:USDT", "ETH/USDT:USDT", "XAU/USDT:USDT"],
    skipped: { BTC_USD: "coin-margined", OLD_USDT: "offline" },
    excluded: { notLinearPerp: 1, inactive: 1, unlisted: 0, invalid: 0, noFundingRow: 0 },
    // The contract list only (no spot exchangeInfo, no currencies); one funding and one ticker call.
    requests: ["GET /api/v1/contract/detail", "GET /api/v1/contract/funding_rate", "GET /api/v1/contract/ticker"],
    variants: [
      {
        name: "loses only the prices, open interest and volume when the ticker fails, and dates rows by the funding list",
        routes: () => without(mexcRoutes(), "/api/v1/contract/ticker"),
        markets: {
          "BTC/USDT:USDT": {
            fundingRate: 0.000014,
            fundingIntervalHours: 8,
            rateCap: 0.003,
            markPrice: null,
            indexPrice: null,
            openInterestUsd: null,
            volume24hUsd: null,
            observedAt: MEXC_FUNDING_TIME,
          },
        },
        warnings: ["ticker"],
      },
      {
        name: "goes stale when the funding list answers one contract instead of a list",
        routes: () => [
          { path: "/api/v1/contract/funding_rate", reply: { body: { success: true, code: 0, data: { symbol: "BTC_USDT", fundingRate: 0.0001 } } } },
          ...mexcRoutes(),
        ],
        stale: /./,
      },
    ],
  },
  {
    venue: "okx",
    fixture:
      "REAL: the instruments (nautilus_trader capture: BTC-USD-SWAP inverse, ETH-USDT-SWAP, BTC-USDT-SWAP). SYNTHETIC: the " +
      "funding-rate, mark-price, tickers and open-interest rows.",
    routes: okxRoutes,
    reference: {
      market: "BTC/USDT:USDT", venueMarketId: "BTC-USDT-SWAP",
      fundingRate: 0.0000912,
      // nextFundingRate is "" (method current_period): no forecast; the bounds are stated.
      predictedFundingRate: null,
      rateCap: 0.00375, rateFloor: -0.00375,
      // fundingTime → nextFundingTime.
      fundingIntervalHours: 8, fundingIntervalSource: "schedule",
      nextFundingAt: 1790524800000,
      markPrice: 84975.3,
      indexPrice: null,
      openInterestUsd: 2124382500,
      volume24hUsd: 10000.5 * 84976.0,
      takerFee: 0.0005,
      observedAt: OKX_TS,
    },
    markets: { "ETH/USDT:USDT": { fundingRate: -0.0000421, fundingIntervalHours: 4 } },
    listed: ["BTC/USDT:USDT", "ETH/USDT:USDT"],
    skipped: { "BTC-USD-SWAP": "inverse, although it has a funding row" },
    excluded: { notLinearPerp: 1, inactive: 0, unlisted: 0, invalid: 0, noFundingRow: 0 },
    // Swaps only; every swap's funding row in one request.
    requests: [
      "GET /api/v5/public/instruments?instType=SWAP",
      "GET /api/v5/public/funding-rate?instId=ANY",
      "GET /api/v5/public/mark-price?instType=SWAP",
      "GET /api/v5/market/tickers?instType=SWAP",
      "GET /api/v5/public/open-interest?instType=SWAP",
    ],
    variants: [
      {
        name: "loses only the extras when their endpoints fail",
        routes: () => only(okxRoutes(), "/api/v5/public/instruments", "/api/v5/public/funding-rate"),
        markets: { "BTC/USDT:USDT": { fundingRate: 0.0000912, fundingIntervalHours: 8, markPrice: null, openInterestUsd: null, volume24hUsd: null } },
        warnings: ["mark-price", "tickers", "open-interest"],
      },
    ],
  },
  {
    venue: "paradex",
    fixture:
      "REAL TESTNET: the BTC-USD-PERP rows (ccxt's static recording, 2024), with the DOCUMENTED `funding_period_hours: 8` " +
      "the 2024 row predates. SYNTHETIC: ETH-USD-PERP. DOCUMENTED EXAMPLE: the perpetual option ccxt's source quotes.",
    routes: paradexRoutes,
    now: Date.UTC(2024, 5, 14, 15, 13),
    reference: {
      // Quoted in USD, settled in USDC: spelt USDC so it pairs with the other USDC perpetuals.
      market: "BTC/USDC:USDC", venueMarketId: "BTC-USD-PERP",
      // The testnet's rate for the whole 8h period, as sent.
      fundingRate: 0.00749938923192,
      predictedFundingRate: null,
      // `max_funding_rate`, per period, both ways.
      rateCap: 0.02, rateFloor: -0.02,
      fundingIntervalHours: 8, fundingIntervalSource: "venue",
      // Funding accrues continuously: no settlement time.
      nextFundingAt: null,
      markPrice: 67307.7225876,
      indexPrice: 66806.71304318,
      openInterestUsd: 152.777 * 67307.7225876,
      volume24hUsd: 2611476.262600002,
      // Paradex's published default (Retail) taker fee; ccxt's default is 0.03 %.
      takerFee: 0,
      observedAt: PARADEX_SUMMARY_CREATED_AT,
    },
    listed: ["BTC/USDC:USDC", "ETH/USDC:USDC"],
    // The perpetual option is listed and summarised but funds nothing comparable.
    skipped: { "BTC-USD-96000-C": "perpetual option" },
    excluded: { notLinearPerp: 1, unlisted: 0, invalid: 0 },
    requests: ["GET /v1/markets", "GET /v1/markets/summary?market=ALL"],
    variants: [
      {
        name: "reads any stated period",
        routes: () =>
          editBody<{ results: Row[] }>(paradexRoutes(), "/v1/markets", (body) => ({
            results: patchRows(body.results, { "ETH-USD-PERP": { funding_period_hours: 1 } }),
          })),
        markets: { "ETH/USDC:USDC": { fundingRate: -0.0000812, fundingIntervalHours: 1, fundingIntervalSource: "venue" } },
      },
      {
        name: "reads no period from a market list that states none (the unaltered testnet row)",
        routes: () => [
          { path: "/v1/markets", reply: { body: fixtureText("paradex/markets_BTC_2024-07_testnet.json") } },
          ...without(paradexRoutes(), "/v1/markets"),
        ],
        markets: { "BTC/USDC:USDC": { fundingRate: 0.00749938923192, fundingIntervalHours: null, fundingIntervalSource: null } },
      },
      {
        name: "a garbled bound or price costs that field; a garbled rate costs the market",
        routes: () =>
          editBody<{ results: Row[] }>(
            editBody<{ results: Row[] }>(paradexRoutes(), "/v1/markets", (body) => ({
              results: patchRows(body.results, { "BTC-USD-PERP": { max_funding_rate: "?" } }),
            })),
            "/v1/markets/summary",
            (body) => ({ results: patchRows(body.results, { "BTC-USD-PERP": { volume_24h: "many" }, "ETH-USD-PERP": { funding_rate: "soon" } }) }),
          ),
        markets: {
          "BTC/USDC:USDC": { fundingRate: 0.00749938923192, rateCap: null, rateFloor: null, volume24hUsd: null },
          "ETH/USDC:USDC": null,
        },
        excluded: { invalid: 1 },
      },
    ],
  },
  {
    venue: "phemex",
    fixture:
      "DOCUMENTED EXAMPLES (no faithful recording exists): the BTCUSDT product and ticker rows and the v1 product list ccxt " +
      "quotes from Phemex's docs; everything else SYNTHETIC in that shape.",
    routes: phemexRoutes,
    reference: {
      market: "BTC/USDT:USDT", venueMarketId: "BTCUSDT",
      // The v2 ticker's rate strings.
      fundingRate: 0.0001,
      predictedFundingRate: 0.0001,
      // Phemex publishes no bounds with the rate.
      rateCap: null, rateFloor: null,
      // fundingInterval 28800 (seconds).
      fundingIntervalHours: 8, fundingIntervalSource: "venue",
      // "1672142789065593096" ns = 12:06:29Z; the next point of the 8h UTC grid is 16:00Z.
      nextFundingAt: Date.UTC(2022, 11, 27, 16),
      markPrice: 16830.97534951,
      indexPrice: 16830.15651565,
      openInterestUsd: 1323.596 * 16830.97534951,
      volume24hUsd: 124835296.0538,
      // Phemex's published contract taker fee (ccxt's default placeholder is 0.1 %).
      takerFee: 0.0006,
      observedAt: PHEMEX_TICKER_TIME,
    },
    markets: {
      "ETH/USDT:USDT": { fundingRate: -0.00002311, predictedFundingRate: -0.00001, fundingIntervalHours: 8 },
      // fundingInterval 14400: 4h, next settlement still 16:00Z from 12:06Z.
      "SOL/USDT:USDT": { fundingRate: 0.00025, fundingIntervalHours: 4, fundingIntervalSource: "venue", nextFundingAt: Date.UTC(2022, 11, 27, 16) },
    },
    listed: ["BTC/USDT:USDT", "ETH/USDT:USDT", "SOL/USDT:USDT"],
    skipped: { BTCUSD: "inverse", OLDUSDT: "delisted, although the ticker lists it" },
    excluded: { notLinearPerp: 1, inactive: 1, unlisted: 0, invalid: 0, noFundingRow: 0 },
    // ccxt's fetchMarkets reads both product lists; the ticker covers every USDT perpetual at once.
    requests: ["GET /v1/exchange/public/products", "GET /public/products", "GET /md/v2/ticker/24hr/all"],
    variants: [
      {
        name: "reads the timestamp as the JSON number Phemex's own docs show, and drops a row whose time is garbled",
        routes: () =>
          editBody<{ result: Row[] }>(phemexRoutes(), "/md/v2/ticker/24hr/all", (body) => ({
            ...body,
            result: patchRows(body.result, { BTCUSDT: { timestamp: 1672142789065593000 }, ETHUSDT: { timestamp: "yesterday" } }),
          })),
        markets: { "BTC/USDT:USDT": { observedAt: PHEMEX_TICKER_TIME }, "ETH/USDT:USDT": null },
        excluded: { invalid: 1 },
      },
      {
        name: "has no interval, hence no next settlement, when the product list does not state one",
        routes: () =>
          editBody<{ data: { perpProductsV2: Row[] } }>(phemexRoutes(), "/public/products", (body) => ({
            ...body,
            data: { ...body.data, perpProductsV2: patchRows(body.data.perpProductsV2, { ETHUSDT: { fundingInterval: undefined } }) },
          })),
        markets: { "ETH/USDT:USDT": { fundingRate: -0.00002311, fundingIntervalHours: null, fundingIntervalSource: null, nextFundingAt: null } },
      },
    ],
  },
  {
    venue: "woo",
    fixture:
      "REAL: PERP_BTC_USDT's funding row and its answer's time (ccxt's recording, 2025-07-04), the SPOT_AAVE_USDT instrument " +
      "and the 2026-08-14 futures answer of a variant. SYNTHETIC in the recordings' shape: the PERP instruments, the other " +
      "funding rows and the futures rows.",
    routes: wooRoutes,
    reference: {
      market: "BTC/USDT:USDT", venueMarketId: "PERP_BTC_USDT",
      // estFundingRate: the running estimate of the 16:00Z settlement, WOO X's only current rate.
      fundingRate: -0.00000441,
      predictedFundingRate: -0.00000441,
      rateCap: null, rateFloor: null,
      fundingIntervalHours: 8, fundingIntervalSource: "venue",
      nextFundingAt: 1751644800000,
      markPrice: 108985.3,
      indexPrice: 108996.4,
      openInterestUsd: 251.38812 * 108985.3,
      volume24hUsd: 45012345.67,
      takerFee: 0.0005,
      // The answer's `timestamp`, not the row's estFundingRateTimestamp (a minute earlier).
      observedAt: WOO_TIME,
    },
    markets: {
      "ETH/USDT:USDT": { fundingRate: -0.00001237, fundingIntervalHours: 8 },
      // lastFundingIntervalHours 8, estFundingIntervalHours 4: the current period is the 4h one.
      "SOL/USDT:USDT": { fundingRate: 0.00021, fundingIntervalHours: 4, fundingIntervalSource: "venue", nextFundingAt: Date.UTC(2025, 6, 4, 12) },
    },
    listed: ["BTC/USDT:USDT", "ETH/USDT:USDT", "SOL/USDT:USDT"],
    skipped: { SPOT_AAVE_USDT: "spot", PERP_OLD_USDT: "suspended" },
    excluded: { notLinearPerp: 1, inactive: 1, unlisted: 0, invalid: 0, noFundingRow: 0 },
    requests: ["GET /v3/public/instruments", "GET /v3/public/fundingRate", "GET /v3/public/futures"],
    variants: [
      {
        name: "loses only prices, open interest and volume when /v3/public/futures fails",
        routes: () => without(wooRoutes(), "/v3/public/futures"),
        markets: {
          "BTC/USDT:USDT": {
            fundingRate: -0.00000441,
            fundingIntervalHours: 8,
            nextFundingAt: 1751644800000,
            markPrice: null,
            indexPrice: null,
            openInterestUsd: null,
            volume24hUsd: null,
            observedAt: WOO_TIME,
          },
        },
        warnings: ["futures"],
      },
      {
        name: "parses the REAL futures answer's types (another day's: 2026-08-14)",
        routes: () => [
          { path: "/v3/public/futures", reply: { body: fixtureText("woo/futures_v3_PERP_BTC-ETH_2026-08-14.json") } },
          ...without(wooRoutes(), "/v3/public/futures"),
        ],
        markets: {
          "BTC/USDT:USDT": { markPrice: 63006, indexPrice: 63034, openInterestUsd: 222.90759 * 63006, volume24hUsd: 1944183 },
          "ETH/USDT:USDT": { markPrice: 1874.8, volume24hUsd: 11518400.5 },
          // No futures row for SOL in that answer.
          "SOL/USDT:USDT": { fundingRate: 0.00021, markPrice: null },
        },
      },
    ],
  },
  {
    venue: "krakenfutures",
    fixture:
      "REAL: the instruments answer (PI_XBTUSD, PF_ETHUSD, PF_PEPEUSD, PF_AAPLxUSD; nautilus_trader's test data) and the PI_XBTUSD " +
      "tickers answer (2025-11-17). DOCUMENTED EXAMPLE: the PF_ENJUSD ticker ccxt's source quotes (its instrument row built in " +
      "PF_ETHUSD's shape). SYNTHETIC: the PF_ETHUSD, PF_PEPEUSD and PF_AAPLxUSD tickers and a dated future's.",
    routes: krakenfuturesRoutes,
    now: KRAKENFUTURES_TIME + 2_000,
    reference: {
      market: "ENJ/USD:USD", venueMarketId: "PF_ENJUSD",
      // fundingRate -7.56414717067e-7 is USD per contract (1 ENJ) per hour: ÷ the 0.0434 mark, the
      // relative rate. Read as is it would be 23 times too small.
      fundingRate: -0.000000756414717067 / 0.0434,
      predictedFundingRate: 0.000000195218676 / 0.0434,
      // The instrument's maxRelativeFundingRate, per hour, both ways.
      rateCap: 0.0025, rateFloor: -0.0025,
      // fundingRateCoefficient 24: 24 periods a day.
      fundingIntervalHours: 1, fundingIntervalSource: "venue",
      // The next whole hour after the answer's serverTime (00:34:37Z).
      nextFundingAt: Date.UTC(2025, 10, 17, 1),
      markPrice: 0.0434,
      indexPrice: 0.043391,
      // openInterest 72513 contracts of 1 ENJ, at the mark.
      openInterestUsd: 72513 * 0.0434,
      volume24hUsd: 73.5216,
      // Kraken's published tier-1 taker fee.
      takerFee: 0.0005,
      // The answer's serverTime.
      observedAt: KRAKENFUTURES_TIME,
    },
    markets: {
      "ETH/USD:USD": { fundingRate: 0.00001, predictedFundingRate: 0.00002, openInterestUsd: 12000.5 * 3150 },
      "PEPE/USD:USD": { base: "PEPE", contractMultiplier: 1, fundingRate: -0.00002 },
      // The xStocks token keeps its own name: never the AAPL stock perpetuals of other venues.
      PF_AAPLxUSD: { market: "AAPLX/USD:USD", base: "AAPLX", venueBase: "AAPLx", fundingRate: 0.00001 },
    },
    listed: ["AAPLX/USD:USD", "ENJ/USD:USD", "ETH/USD:USD", "PEPE/USD:USD"],
    skipped: { PI_XBTUSD: "inverse (the REAL ticker)", FI_XBTUSD_251226: "dated future's ticker" },
    excluded: { notLinearPerp: 1, inactive: 0, unlisted: 0, invalid: 0, noFundingRow: 0 },
    requests: ["GET /derivatives/api/v3/instruments", "GET /derivatives/api/v3/tickers"],
    variants: [
      {
        name: "is stale, not empty, on the REAL payloads alone, whose only ticker is the inverse PI_XBTUSD",
        routes: () =>
          editBody<{ tickers: Row[] }>(krakenfuturesRoutes(), "/derivatives/api/v3/tickers", (body) => ({
            ...body,
            tickers: body.tickers.filter((row) => row.symbol === "PI_XBTUSD"),
          })),
        stale: /no usable funding rate/,
      },
      {
        name: "is stale when the tickers fail",
        routes: () => without(krakenfuturesRoutes(), "/derivatives/api/v3/tickers"),
        stale: /./,
      },
      {
        name: "drops a row whose mark is garbled (no relative rate without it); a market without a coefficient or cap loses only those",
        routes: () =>
          editBody<{ instruments: Row[] }>(
            editBody<{ tickers: Row[] }>(krakenfuturesRoutes(), "/derivatives/api/v3/tickers", (body) => ({
              ...body,
              tickers: patchRows(body.tickers, { PF_PEPEUSD: { markPrice: "n/a" } }),
            })),
            "/derivatives/api/v3/instruments",
            (body) => ({
              ...body,
              instruments: patchRows(body.instruments, { PF_ETHUSD: { fundingRateCoefficient: undefined, maxRelativeFundingRate: undefined } }),
            }),
          ),
        markets: {
          "PEPE/USD:USD": null,
          "ETH/USD:USD": { fundingRate: 0.00001, fundingIntervalHours: null, fundingIntervalSource: null, rateCap: null, rateFloor: null },
        },
        excluded: { invalid: 1 },
      },
      {
        name: "has no rate, and no forecast, for a perpetual whose ticker sends none",
        routes: () =>
          editBody<{ tickers: Row[] }>(krakenfuturesRoutes(), "/derivatives/api/v3/tickers", (body) => ({
            ...body,
            tickers: patchRows(body.tickers, { PF_ETHUSD: { fundingRate: undefined, fundingRatePrediction: undefined } }),
          })),
        markets: { "ETH/USD:USD": { fundingRate: null, predictedFundingRate: null, markPrice: 3150 } },
      },
    ],
  },
  {
    venue: "derive",
    fixture:
      "REAL: BTC-PERP's get_ticker answer with its perp_details (ccxt's recording, 2025-01-06). DOCUMENTED EXAMPLE: the BTC-PERP " +
      "get_all_instruments row ccxt's source quotes. SYNTHETIC: the ETH-PERP instrument and ticker, the inactive OLD-PERP. " +
      "Plain-HTTP kind: ccxt's derive class reads funding only from its history.",
    routes: deriveRoutes,
    now: DERIVE_TIME + 3_000,
    reference: {
      // Quoted in USD on USDC collateral: spelt USDC, as Paradex's.
      market: "BTC/USDC:USDC", venueMarketId: "BTC-PERP",
      // perp_details.funding_rate, per hour.
      fundingRate: -0.000016101766457197,
      predictedFundingRate: null,
      // max_rate_per_hour / min_rate_per_hour.
      rateCap: 0.004, rateFloor: -0.004,
      fundingIntervalHours: 1, fundingIntervalSource: "protocol",
      // The next whole hour after the ticker's 09:31:25Z (its funding history rows fall on the hour).
      nextFundingAt: Date.UTC(2025, 0, 6, 10),
      markPrice: 99031.92750003036,
      indexPrice: 99059.7,
      // stats.open_interest and the 24h contract_volume count BTC: valued at the mark.
      openInterestUsd: 76.222135170666813448 * 99031.92750003036,
      volume24hUsd: 484.053 * 99031.92750003036,
      // No published schedule: the instrument's own taker_fee_rate.
      takerFee: 0.0003,
      observedAt: DERIVE_TIME,
    },
    markets: { "ETH/USDC:USDC": { fundingRate: 0.0000421, rateCap: 0.004, observedAt: DERIVE_TIME } },
    listed: ["BTC/USDC:USDC", "ETH/USDC:USDC"],
    skipped: { "OLD-PERP": "inactive (no ticker asked)" },
    excluded: { notLinearPerp: 0, inactive: 1, unlisted: 0, invalid: 0, noFundingRow: 0 },
    requests: [
      'POST /public/get_all_instruments {"expired":false,"instrument_type":"perp","page":1,"page_size":1000}',
      'POST /public/get_ticker {"instrument_name":"BTC-PERP"}',
      'POST /public/get_ticker {"instrument_name":"ETH-PERP"}',
    ],
    variants: [
      {
        name: "dates each market at its own ticker's timestamp",
        routes: () =>
          editBody<{ result: Row }>(deriveRoutes(), "/public/get_ticker", (body) =>
            body.result.instrument_name === "ETH-PERP" ? { ...body, result: { ...body.result, timestamp: DERIVE_TIME - 1_000 } } : body,
          ),
        markets: { "BTC/USDC:USDC": { observedAt: DERIVE_TIME }, "ETH/USDC:USDC": { observedAt: DERIVE_TIME - 1_000 } },
      },
      {
        name: "a failed ticker costs that market its rate and says so; the others stand",
        routes: () => [deriveTickerRoute("ETH-PERP", { status: 500, body: "Internal Server Error" }), ...deriveRoutes()],
        markets: { "BTC/USDC:USDC": { fundingRate: -0.000016101766457197 }, "ETH/USDC:USDC": { fundingRate: null } },
        excluded: { noFundingRow: 1 },
        warnings: [/^ticker: 1 of 2 failed \(ETH-PERP\): /],
      },
      {
        name: "a ticker answering for another instrument is a failed ticker, not that instrument's rate",
        routes: () => [
          deriveTickerRoute("ETH-PERP", { body: fixtureJson("derive/get_ticker_BTC-PERP_2025-01-06.json") }),
          ...deriveRoutes(),
        ],
        markets: { "ETH/USDC:USDC": { fundingRate: null } },
        warnings: ["ticker"],
      },
      {
        name: "a garbled bound costs that field; a garbled rate costs the market",
        routes: () => {
          const btc = fixtureJson<{ result: Row & { perp_details: Row } }>("derive/get_ticker_BTC-PERP_2025-01-06.json");
          return [
            deriveTickerRoute("BTC-PERP", {
              body: { ...btc, result: { ...btc.result, perp_details: { ...btc.result.perp_details, max_rate_per_hour: "∞", funding_rate: "-0.0000161" } } },
            }),
            deriveTickerRoute("ETH-PERP", {
              body: { result: { ...btc.result, instrument_name: "ETH-PERP", perp_details: { ...btc.result.perp_details, funding_rate: "soon" } } },
            }),
            ...deriveRoutes(),
          ];
        },
        markets: { "BTC/USDC:USDC": { fundingRate: -0.0000161, rateCap: null, rateFloor: -0.004 }, "ETH/USDC:USDC": null },
        excluded: { invalid: 1 },
      },
    ],
  },
  {
    venue: "drift",
    fixture:
      "REAL: BTC-PERP's stats/markets row (ccxt's recording, funding updated 2026-02-10 13:00:10Z). SYNTHETIC in its shape: the " +
      "bundled 1MPEPE-PERP and 1KWEN-PERP, a spot row and a reduce-only market. No class in the installed ccxt: the plain-HTTP kind.",
    routes: driftRoutes,
    now: DRIFT_FUNDING_UPDATE + 20 * 60_000,
    reference: {
      market: "BTC/USDC:USDC", venueMarketId: "BTC-PERP",
      // fundingRate.long "0.00093" is the longs' P&L in percent an hour: longs are paid, so the
      // rate (positive: longs pay) is -0.00093 %. The running estimate of the coming update.
      fundingRate: -0.0000093,
      predictedFundingRate: -0.0000093,
      // Drift states no bound in the row.
      rateCap: null, rateFloor: null,
      fundingIntervalHours: 1, fundingIntervalSource: "protocol",
      nextFundingAt: Date.UTC(2026, 1, 10, 14),
      markPrice: 68481.850665,
      // The oracle price.
      indexPrice: 68525.837797,
      // openInterest per side in BTC (long 264.7866, short -312.3766): the larger side.
      openInterestUsd: 312.3766 * 68481.850665,
      volume24hUsd: 20508203.775252,
      // Drift's published perp tier 1 (the row's own 0.035 % is BTC's discounted rate).
      takerFee: 0.001,
      observedAt: DRIFT_FUNDING_UPDATE + 20 * 60_000,
    },
    markets: {
      // Named for the bundle, so the multiplier survives although baseAsset names the bare token.
      "1MPEPE/USDC:USDC": { base: "PEPE", venueBase: "1MPEPE", contractMultiplier: 1_000_000, fundingRate: 0.000025 },
      "1KWEN/USDC:USDC": { base: "WEN", venueBase: "1KWEN", contractMultiplier: 1_000, fundingRate: -0.000011 },
    },
    listed: ["1KWEN/USDC:USDC", "1MPEPE/USDC:USDC", "BTC/USDC:USDC"],
    skipped: { "OLD-PERP": "reduce-only" },
    excluded: { notLinearPerp: 1, inactive: 1, unlisted: 0, invalid: 0, noFundingRow: 0 },
    requests: ["GET /stats/markets"],
    variants: [
      {
        name: "drops a row whose rate is garbled; a garbled price costs that field",
        routes: () =>
          editBody<{ markets: Row[] }>(driftRoutes(), "/stats/markets", (body) => ({
            ...body,
            markets: patchRows(body.markets, {
              "1KWEN-PERP": { fundingRate: { long: "n/a", short: "n/a" } },
              "BTC-PERP": { markPrice: "?" },
            }),
          })),
        markets: {
          "1KWEN/USDC:USDC": null,
          "BTC/USDC:USDC": { fundingRate: -0.0000093, markPrice: null, openInterestUsd: null },
        },
        excluded: { invalid: 1 },
      },
      {
        name: "is stale on an answer without a market list",
        routes: () => editBody<{ markets: Row[] }>(driftRoutes(), "/stats/markets", () => ({ success: false, error: "maintenance" })),
        stale: /expected a list under "markets"/,
      },
    ],
  },
  {
    venue: "pacifica",
    fixture:
      "REAL TESTNET: the GET /info answer (BTC perpetual, SOL-USDC spot; ccxt's recording). DOCUMENTED EXAMPLE: the XPL " +
      "/info/prices row ccxt's source quotes, and an XPL market row carrying its rates. SYNTHETIC: BTC's prices row.",
    routes: pacificaRoutes,
    now: PACIFICA_TIME + 1_000,
    reference: {
      market: "XPL/USDC:USDC", venueMarketId: "XPL",
      // next_funding_rate: the running estimate of the coming hour, also Pacifica's forecast.
      fundingRate: 0.00011096,
      predictedFundingRate: 0.00011096,
      // Not in any payload.
      rateCap: null, rateFloor: null,
      fundingIntervalHours: 1, fundingIntervalSource: "protocol",
      nextFundingAt: Date.UTC(2025, 8, 30, 10),
      markPrice: 1.084819,
      indexPrice: 1.084524,
      openInterestUsd: 3634796 * 1.084819,
      volume24hUsd: 20896698.0672,
      // Pacifica's fee level 0.
      takerFee: 0.0004,
      observedAt: PACIFICA_TIME,
    },
    markets: { "BTC/USDC:USDC": { fundingRate: 0.0000125, predictedFundingRate: 0.0000125, markPrice: 113950 } },
    listed: ["BTC/USDC:USDC", "XPL/USDC:USDC"],
    skipped: { "SOL-USDC": "spot (REAL)" },
    excluded: { notLinearPerp: 1, inactive: 0, unlisted: 0, invalid: 0, noFundingRow: 0 },
    // ccxt's market list, then the same list raw (the rates) beside the prices.
    requests: ["GET /api/v1/info", "GET /api/v1/info", "GET /api/v1/info/prices"],
    variants: [
      {
        name: "loses only prices, open interest and volume when /info/prices fails",
        routes: () => without(pacificaRoutes(), "/api/v1/info/prices"),
        markets: { "BTC/USDC:USDC": { fundingRate: 0.0000125, markPrice: null, indexPrice: null, openInterestUsd: null, volume24hUsd: null } },
        warnings: ["prices"],
      },
      {
        name: "drops a row whose rate is garbled",
        routes: () =>
          editBody<{ data: Row[] }>(pacificaRoutes(), "/api/v1/info", (body) => ({
            ...body,
            data: patchRows(body.data, { XPL: { next_funding_rate: "soon" } }),
          })),
        markets: { "XPL/USDC:USDC": null },
        excluded: { invalid: 1 },
      },
    ],
  },
  {
    venue: "orderly",
    fixture:
      "DOCUMENTED EXAMPLES: the PERP_BTC_USDC /v1/public/info row and the PERP_ETH_USDC /v1/public/funding_rates rates (Orderly's docs), " +
      "the PERP_BTC_USDC /v1/public/futures row and its time (ccxt's woofipro comment). SYNTHETIC in those shapes: the ETH and SOL info " +
      "rows, the BTC, SOL and pre-TGE funding rows, ETH's times, the ETH and SOL futures rows. No REAL body was found.",
    routes: orderlyRoutes,
    now: ORDERLY_TIME + 1_000,
    reference: {
      market: "BTC/USDC:USDC", venueMarketId: "PERP_BTC_USDC",
      // est_funding_rate: the running estimate of the 16:00Z settlement, Orderly's only current rate.
      fundingRate: 0.0000125,
      predictedFundingRate: 0.0000125,
      // cap_funding / floor_funding of the documented info row, per funding period.
      rateCap: 0.000375, rateFloor: -0.000375,
      fundingIntervalHours: 8, fundingIntervalSource: "venue",
      nextFundingAt: ORDERLY_NEXT,
      markPrice: 64171,
      indexPrice: 64185.4,
      openInterestUsd: 110.64612 * 64171,
      volume24hUsd: 6595662.199482,
      // No published schedule and no fee on any row: Orderly's base fee plus each builder's.
      takerFee: null,
      observedAt: ORDERLY_TIME,
      // last_funding_rate at last_funding_rate_timestamp: the venue's own settled figure.
      lastSettlement: { rate: 0.00001, at: ORDERLY_LAST_8H },
    },
    markets: {
      // The documented ETH rates: a flat estimate beside a settled 0.01 %.
      "ETH/USDC:USDC": { fundingRate: 0, predictedFundingRate: 0, lastSettlement: { rate: 0.0001, at: ORDERLY_LAST_8H }, markPrice: 3119.8 },
      "SOL/USDC:USDC": {
        fundingRate: -0.00002, rateCap: 0.0075, rateFloor: -0.0075,
        fundingIntervalHours: 4, fundingIntervalSource: "venue",
        lastSettlement: { rate: -0.00001, at: ORDERLY_LAST_4H },
      },
    },
    listed: ["BTC/USDC:USDC", "ETH/USDC:USDC", "SOL/USDC:USDC"],
    skipped: { PERP_PRETGE_USDC: "a funding row of a market the info lacks (pre-TGE)" },
    excluded: { notLinearPerp: 0, inactive: 0, unlisted: 1, invalid: 0, noFundingRow: 0 },
    // The market list each refresh (intervals and bounds move with it), then the rates beside the tickers.
    requests: ["GET /v1/public/info", "GET /v1/public/funding_rates", "GET /v1/public/futures"],
    variants: [
      {
        name: "loses only prices, open interest and volume when /v1/public/futures fails",
        routes: () => without(orderlyRoutes(), "/v1/public/futures"),
        markets: { "BTC/USDC:USDC": { fundingRate: 0.0000125, rateCap: 0.000375, markPrice: null, indexPrice: null, openInterestUsd: null, volume24hUsd: null } },
        warnings: ["futures"],
      },
      {
        name: "reads the interval from the last and next settlement when the info states no funding_period",
        routes: () =>
          editBody<{ data: { rows: Row[] } }>(orderlyRoutes(), "/v1/public/info", (body) => ({
            ...body,
            data: { rows: patchRows(body.data.rows, { PERP_SOL_USDC: { funding_period: undefined } }) },
          })),
        markets: { "SOL/USDC:USDC": { fundingIntervalHours: 4, fundingIntervalSource: "schedule" } },
      },
      {
        name: "drops a row whose rate is garbled, and only that row",
        routes: () =>
          editBody<{ data: { rows: Row[] } }>(orderlyRoutes(), "/v1/public/funding_rates", (body) => ({
            ...body,
            data: { rows: patchRows(body.data.rows, { PERP_ETH_USDC: { est_funding_rate: "soon" } }) },
          })),
        markets: { "ETH/USDC:USDC": null, "BTC/USDC:USDC": { fundingRate: 0.0000125 } },
        excluded: { invalid: 1 },
      },
    ],
  },
  {
    venue: "btse",
    fixture:
      "DOCUMENTED EXAMPLES (ccxt's btse.js comments): the BTC-USDT, BTC-PERP-USDT and BTC-260925-USDT market rows, the 24h ticker answer " +
      "with BTC-PERP-USDT's row (2026-08-13) and the ETH-PERP-USDT row. SYNTHETIC in those shapes: the ETH and SOL market rows, SOL's, the " +
      "spot and the dated tickers. No REAL body was found.",
    routes: btseRoutes,
    now: BTSE_TIME + 1_000,
    reference: {
      market: "BTC/USDT:USDT", venueMarketId: "BTC-PERP-USDT",
      fundingRate: 0.0001,
      // BTSE publishes one rate; nothing says it is a forecast.
      predictedFundingRate: null,
      rateCap: null, rateFloor: null,
      // fundingIntervalMinutes 480.
      fundingIntervalHours: 8, fundingIntervalSource: "venue",
      nextFundingAt: BTSE_NEXT,
      // The ticker carries neither.
      markPrice: null,
      indexPrice: null,
      // 29489680 contracts of 0.00001 BTC at the last trade.
      openInterestUsd: 29489680 * 0.00001 * 63790.1,
      volume24hUsd: 502595131.844331,
      // No schedule found: ccxt's contract taker.
      takerFee: 0.00055,
      // The row's closeTime (seconds).
      observedAt: BTSE_BTC_CLOSE,
    },
    markets: {
      "ETH/USDT:USDT": { fundingRate: 0.00006016, openInterestUsd: 19344237 * 0.0001 * 1896.17, volume24hUsd: 366459222.269293, observedAt: BTSE_ETH_CLOSE },
      "SOL/USDT:USDT": { fundingRate: -0.00002, fundingIntervalHours: 4, fundingIntervalSource: "venue" },
    },
    listed: ["BTC/USDT:USDT", "ETH/USDT:USDT", "SOL/USDT:USDT"],
    skipped: { "BTC-USDT": "spot (DOC)", "BTC-260925-USDT": "dated future (DOC)" },
    excluded: { notLinearPerp: 2, inactive: 0, unlisted: 0, invalid: 0, noFundingRow: 0 },
    requests: ["GET /public-api/market/v1/markets", "GET /public-api/market/v1/ticker/24hr"],
    variants: [
      {
        name: "leaves the interval unknown when fundingIntervalMinutes is garbled, not whole hours or missing",
        routes: () =>
          editBody<{ data: Row[] }>(btseRoutes(), "/public-api/market/v1/ticker/24hr", (body) => ({
            ...body,
            data: patchRows(body.data, { "SOL-PERP-USDT": { fundingIntervalMinutes: "soon" }, "ETH-PERP-USDT": { fundingIntervalMinutes: 90 } }),
          })),
        markets: {
          "SOL/USDT:USDT": { fundingRate: -0.00002, fundingIntervalHours: null, fundingIntervalSource: null },
          "ETH/USDT:USDT": { fundingIntervalHours: null },
          "BTC/USDT:USDT": { fundingIntervalHours: 8 },
        },
      },
      {
        name: "drops a row whose rate is garbled, and only that row",
        routes: () =>
          editBody<{ data: Row[] }>(btseRoutes(), "/public-api/market/v1/ticker/24hr", (body) => ({
            ...body,
            data: patchRows(body.data, { "ETH-PERP-USDT": { fundingRate: "soon" } }),
          })),
        markets: { "ETH/USDT:USDT": null, "BTC/USDT:USDT": { fundingRate: 0.0001 } },
        excluded: { invalid: 1 },
      },
      {
        name: "keeps a perpetual whose ticker row is missing, without a rate",
        routes: () =>
          editBody<{ data: Row[] }>(btseRoutes(), "/public-api/market/v1/ticker/24hr", (body) => ({
            ...body,
            data: patchRows(body.data, { "SOL-PERP-USDT": null }),
          })),
        markets: { "SOL/USDT:USDT": { fundingRate: null, fundingIntervalHours: null } },
        excluded: { noFundingRow: 1 },
      },
    ],
  },
  {
    venue: "weex",
    fixture:
      "DOCUMENTED EXAMPLES (ccxt's weex.js comments): the ETHUSDT contract row, its premiumIndex row (2026-04-07 21:33Z) and its 24h " +
      "ticker row. SYNTHETIC in those shapes: BTCUSDT, SOLUSDT (4-hourly) and the inverse BTCUSD. No REAL body was found.",
    routes: weexRoutes,
    now: WEEX_TIME + 1_000,
    reference: {
      market: "ETH/USDT:USDT", venueMarketId: "ETHUSDT",
      // forecastFundingRate: the running estimate of the 00:00Z settlement (lastFundingRate, 0.00001031, is 16:00Z's).
      fundingRate: 0.00005618,
      predictedFundingRate: 0.00005618,
      rateCap: null, rateFloor: null,
      // collectCycle 480 minutes.
      fundingIntervalHours: 8, fundingIntervalSource: "venue",
      nextFundingAt: WEEX_NEXT,
      markPrice: 2133.71,
      indexPrice: 2134.44,
      // Served one contract a request only.
      openInterestUsd: null,
      volume24hUsd: 1310647345.19346,
      // The contract row's own takerFeeRate (no published schedule found).
      takerFee: 0.0008,
      observedAt: WEEX_TIME,
    },
    markets: {
      "BTC/USDT:USDT": { fundingRate: 0.0001, markPrice: 68990.4, volume24hUsd: 3595000000.5 },
      "SOL/USDT:USDT": { fundingRate: -0.00004, fundingIntervalHours: 4, fundingIntervalSource: "venue" },
    },
    listed: ["BTC/USDT:USDT", "ETH/USDT:USDT", "SOL/USDT:USDT"],
    skipped: { BTCUSD: "inverse, margined in BTC (SYNTHETIC)" },
    excluded: { notLinearPerp: 1, inactive: 0, unlisted: 0, invalid: 0, noFundingRow: 0 },
    // The contract list only (not ccxt's spot exchangeInfo beside it), then the funding and the tickers.
    requests: ["GET /capi/v3/market/exchangeInfo", "GET /capi/v3/market/premiumIndex", "GET /capi/v3/market/ticker/24hr"],
    variants: [
      {
        name: "loses only the volume when the 24h tickers fail",
        routes: () => without(weexRoutes(), "/capi/v3/market/ticker/24hr"),
        markets: { "ETH/USDT:USDT": { fundingRate: 0.00005618, markPrice: 2133.71, volume24hUsd: null } },
        warnings: ["ticker/24hr"],
      },
      {
        name: "reads the interval from the contract's delivery times when collectCycle is missing",
        routes: () =>
          editBody<Row[]>(weexRoutes(), "/capi/v3/market/premiumIndex", (body) =>
            patchRows(body, { SOLUSDT: { collectCycle: undefined }, ETHUSDT: { collectCycle: "soon" } }),
          ),
        markets: {
          "SOL/USDT:USDT": { fundingIntervalHours: 4, fundingIntervalSource: "venue" },
          "ETH/USDT:USDT": { fundingIntervalHours: 8, fundingIntervalSource: "venue" },
        },
      },
      {
        name: "drops a row whose rate is garbled, and only that row",
        routes: () => editBody<Row[]>(weexRoutes(), "/capi/v3/market/premiumIndex", (body) => patchRows(body, { BTCUSDT: { forecastFundingRate: "soon" } })),
        markets: { "BTC/USDT:USDT": null, "ETH/USDT:USDT": { fundingRate: 0.00005618 } },
        excluded: { invalid: 1 },
      },
    ],
  },
  {
    venue: "variational",
    fixture:
      "REAL: the /metadata/stats answer (belyjelli/ai-rates' recording, 2026-09-13; 7 listings kept). No class in the installed " +
      "ccxt: the plain-HTTP kind.",
    routes: variationalRoutes,
    now: VARIATIONAL_TIME,
    reference: {
      market: "BTC/USDC:USDC", venueMarketId: "BTC",
      // funding_rate "0.091241" is annualised: 0.091241 × 8 h / 8760 per 8-hour settlement.
      fundingRate: 0.0000833251141552511,
      // Variational publishes its current rate only.
      predictedFundingRate: null,
      rateCap: null, rateFloor: null,
      // funding_interval_s 28800.
      fundingIntervalHours: 8, fundingIntervalSource: "venue",
      // No settlement time in the answer.
      nextFundingAt: null,
      markPrice: 77229.3565140889,
      indexPrice: null,
      // Long plus short open interest, both in USDC.
      openInterestUsd: 79488330.90156663 + 70056049.64724581,
      volume24hUsd: 245987215.191356,
      // No maker/taker fee: half the base spread of 1.0812 bp, what a taker pays against the mark.
      takerFee: 0.0000540597538092702,
      observedAt: VARIATIONAL_TIME,
    },
    markets: {
      // -85.536623 a year on a 1-hour interval: -0.98 % an hour, not -8554 %.
      "STORJ/USDC:USDC": { fundingRate: -0.0097644546803653, fundingIntervalHours: 1 },
      // The ticker is the traded unit: a thousand PEPE.
      "1000PEPE/USDC:USDC": { base: "PEPE", venueBase: "1000PEPE", contractMultiplier: 1_000, fundingRate: 0.0001 },
      // Pre-IPO: the documented fixed 0.005 % every 8 hours.
      "OPENAI/USDC:USDC": { fundingRate: 0.00005, fundingIntervalHours: 8 },
      "OPN_OPINION/USDC:USDC": { fundingIntervalHours: 4, fundingRate: 0.00005 },
      // A stock the shared ticker table knows carries its class.
      "TSLA/USDC:USDC": { fundingRate: 0, underlyingClass: "equity" },
    },
    listed: ["1000PEPE/USDC:USDC", "BTC/USDC:USDC", "OPENAI/USDC:USDC", "OPN_OPINION/USDC:USDC", "STORJ/USDC:USDC", "TSLA/USDC:USDC"],
    skipped: { XAUS: "a swap on gold spot: no funding interval, not a perpetual (REAL)" },
    excluded: { notLinearPerp: 1, inactive: 0, unlisted: 0, invalid: 0, noFundingRow: 0 },
    requests: ["GET /metadata/stats"],
    variants: [
      {
        name: "drops a listing whose rate is garbled; a garbled spread costs only its fee",
        routes: () =>
          editBody<{ listings: Row[] }>(variationalRoutes(), "/metadata/stats", (body) => ({
            ...body,
            listings: patchRows(body.listings, { STORJ: { funding_rate: "n/a" }, BTC: { base_spread_bps: "wide" } }, "ticker"),
          })),
        markets: { "STORJ/USDC:USDC": null, "BTC/USDC:USDC": { fundingRate: 0.0000833251141552511, takerFee: null } },
        excluded: { invalid: 1 },
      },
      {
        name: "is stale on an answer without listings",
        routes: () => editBody(variationalRoutes(), "/metadata/stats", () => ({ error: "maintenance" })),
        stale: /expected a list under "listings"/,
      },
    ],
  },
  {
    venue: "hibachi",
    fixture:
      "REAL: the /market/inventory answer (belyjelli/ai-rates' recording, 2026-09-13; BTC, ETH, XAG, EUR, a closed contract). " +
      "Plain-HTTP kind: ccxt's hibachi class asks one market a request and fixes an 8-hour interval.",
    routes: hibachiRoutes,
    now: HIBACHI_TIME,
    reference: {
      market: "BTC/USDT:USDT", venueMarketId: "BTC/USDT-P",
      // info.estimatedFundingRate: the estimate for the coming hourly settlement, also the forecast.
      fundingRate: 0.000006,
      predictedFundingRate: 0.000006,
      rateCap: null, rateFloor: null,
      // Hourly: the recorded funding history has a row every 3600 s (ccxt's 8h is hard-coded).
      fundingIntervalHours: 1, fundingIntervalSource: "protocol",
      nextFundingAt: Date.UTC(2026, 8, 13, 23),
      markPrice: 76763.73316,
      // The spot reference.
      indexPrice: 76758.93936,
      // openInterestQuantity in BTC, valued at the mark; volume24h already USDT.
      openInterestUsd: 9.1104214497 * 76763.73316,
      volume24hUsd: 7503062.407919,
      // The venue's own exchange-info fee configuration (SDK test data).
      takerFee: 0.00045,
      observedAt: HIBACHI_TIME,
    },
    markets: {
      "ETH/USDT:USDT": { fundingRate: -0.000008, indexPrice: 2478.825588 },
      // Filed under FX, tagged commodity: silver.
      "XAG/USDT:USDT": { fundingRate: 0.000009, underlyingClass: "commodity" },
      "EUR/USDT:USDT": { fundingRate: -0.000006, underlyingClass: "fx" },
    },
    listed: ["BTC/USDT:USDT", "ETH/USDT:USDT", "EUR/USDT:USDT", "XAG/USDT:USDT"],
    skipped: { "FARTCOIN/USDT-P": "status CLOSED (REAL)" },
    excluded: { notLinearPerp: 0, inactive: 1, unlisted: 0, invalid: 0, noFundingRow: 0 },
    requests: ["GET /market/inventory"],
    variants: [
      {
        name: "drops a contract whose estimate is garbled; a garbled price costs that field",
        routes: () =>
          editBody<{ markets: { contract: Row; info: Row }[] }>(hibachiRoutes(), "/market/inventory", (body) => ({
            ...body,
            markets: body.markets.map((entry) =>
              entry.contract.symbol === "ETH/USDT-P"
                ? { ...entry, info: { ...entry.info, estimatedFundingRate: "n/a" } }
                : entry.contract.symbol === "BTC/USDT-P"
                  ? { ...entry, info: { ...entry.info, markPrice: "?" } }
                  : entry,
            ),
          })),
        markets: { "ETH/USDT:USDT": null, "BTC/USDT:USDT": { fundingRate: 0.000006, markPrice: null, openInterestUsd: null } },
        excluded: { invalid: 1 },
      },
      {
        name: "is stale on an answer without a market list",
        routes: () => editBody(hibachiRoutes(), "/market/inventory", () => ({ errorCode: 4, message: "maintenance" })),
        stale: /expected a list under "markets"/,
      },
    ],
  },
  {
    venue: "edgex",
    fixture:
      "REAL: the V2 metadata and getLatestFundingRate answers (belyjelli/ai-rates' recordings, 2026-09-13; 6 contracts kept). " +
      "No class in the installed ccxt: the plain-HTTP kind.",
    routes: edgexRoutes,
    now: EDGEX_TIME + 20_000,
    reference: {
      market: "BTC/USDC:USDC", venueMarketId: "BTCUSDC",
      // fundingRate: the rate finalised at the 20:00Z boundary for the interval settling at 00:00Z.
      fundingRate: -0.00005067,
      // forecastFundingRate: the running estimate of the rate finalised at 00:00Z.
      predictedFundingRate: -0.00005592,
      // The contract's fundingMaxRate / fundingMinRate, per 4-hour interval.
      rateCap: 0.002, rateFloor: -0.002,
      // fundingRateIntervalMin "240".
      fundingIntervalHours: 4, fundingIntervalSource: "venue",
      // fundingTime 20:00Z plus the interval.
      nextFundingAt: Date.UTC(2026, 8, 14, 0),
      markPrice: 76767.04480840737,
      indexPrice: 76799.6329068953,
      // Only in the per-contract ticker, which a refresh does not ask.
      openInterestUsd: null,
      volume24hUsd: null,
      // No published schedule: the contract's defaultTakerFeeRate.
      takerFee: 0.00045,
      // fundingTimestamp: when edgeX calculated the rate.
      observedAt: EDGEX_TIME,
    },
    markets: {
      // The declared base coin keeps the multiplier.
      "1000PEPE/USDC:USDC": { base: "PEPE", venueBase: "1000PEPE", contractMultiplier: 1_000, fundingRate: 0.00005, rateCap: 0.004 },
      // Named 哈基米USDC, declared HAJIMI.
      "HAJIMI/USDC:USDC": { venueMarketId: "哈基米USDC", fundingRate: 0.0000552, rateCap: 0.02 },
      "SPY/USDC:USDC": { fundingRate: 0.00016653, predictedFundingRate: 0.00045657, underlyingClass: "equity" },
      // isFx; hidden in the app (enableDisplay false) but tradeable.
      "EUR/USDC:USDC": { underlyingClass: "fx" },
      // No flag: gold stays in the default class, as the centralised venues' XAU perpetuals.
      "XAU/USDC:USDC": { fundingRate: 0.00000675 },
    },
    listed: ["1000PEPE/USDC:USDC", "BTC/USDC:USDC", "EUR/USDC:USDC", "HAJIMI/USDC:USDC", "SPY/USDC:USDC", "XAU/USDC:USDC"],
    excluded: { notLinearPerp: 0, inactive: 0, unlisted: 0, invalid: 0, noFundingRow: 0 },
    requests: ["GET /api/v2/public/meta/getMetaData", `GET /api/v2/public/funding/getLatestFundingRate?contractId=${EDGEX_CONTRACT_IDS}`],
    variants: [
      {
        name: "a contract closed to trading is inactive and not asked for",
        routes: () =>
          editBody<{ data: { contractList: Row[] } }>(edgexRoutes(), "/api/v2/public/meta/getMetaData", (body) => ({
            ...body,
            data: { ...body.data, contractList: patchRows(body.data.contractList, { XAUUSDC: { enableTrade: false } }, "contractName") },
          })),
        markets: { "XAU/USDC:USDC": null, "BTC/USDC:USDC": { fundingRate: -0.00005067 } },
        excluded: { inactive: 1 },
        requests: [
          "GET /api/v2/public/meta/getMetaData",
          "GET /api/v2/public/funding/getLatestFundingRate?contractId=30000001,30000010,30000046,30000162,30000169",
        ],
      },
      {
        name: "drops a row whose rate is garbled; a garbled forecast costs that field",
        routes: () =>
          editBody<{ data: Row[] }>(edgexRoutes(), "/api/v2/public/funding/getLatestFundingRate", (body) => ({
            ...body,
            data: patchRows(body.data, { "30000010": { fundingRate: "soon" }, "30000001": { forecastFundingRate: "?" } }, "contractId"),
          })),
        markets: { "SPY/USDC:USDC": null, "BTC/USDC:USDC": { fundingRate: -0.00005067, predictedFundingRate: null } },
        excluded: { invalid: 1 },
      },
      {
        name: "a contract the funding answer leaves out keeps no rate",
        routes: () =>
          editBody<{ data: Row[] }>(edgexRoutes(), "/api/v2/public/funding/getLatestFundingRate", (body) => ({
            ...body,
            data: patchRows(body.data, { "30000162": null }, "contractId"),
          })),
        markets: { "EUR/USDC:USDC": { fundingRate: null } },
        excluded: { noFundingRow: 1 },
      },
      {
        name: "is stale when edgeX answers with an error code",
        routes: () => editBody(edgexRoutes(), "/api/v2/public/funding/getLatestFundingRate", () => ({ code: "RATE_LIMIT", msg: "too many requests" })),
        stale: /getLatestFundingRate: code RATE_LIMIT too many requests/,
      },
    ],
  },
  {
    venue: "ethereal",
    fixture:
      "DOCUMENTED EXAMPLE: the ETHUSD product, its projected rate and prices (Ethereal's OpenAPI spec examples; no recording was " +
      "found). SYNTHETIC: BTCUSD and a product of another engine. No class in the installed ccxt: the plain-HTTP kind.",
    routes: etherealRoutes,
    now: ETHEREAL_TIME,
    reference: {
      // Quoted and margined in USDe (quoteTokenName).
      market: "ETH/USDE:USDE", venueMarketId: "ETHUSD",
      // fundingRateProjected1h: the coming hourly charge's rate, also the forecast.
      fundingRate: 0.000078771,
      predictedFundingRate: 0.000078771,
      // fundingMaxApr 2.0 (200 % a year) both ways, per hour.
      rateCap: 0.000228310502283105, rateFloor: -0.000228310502283105,
      fundingIntervalHours: 1, fundingIntervalSource: "protocol",
      nextFundingAt: Date.UTC(2026, 8, 13, 23),
      // No mark price in any answer; the oracle's is the index (the spec's example, BTC-level).
      markPrice: null,
      indexPrice: 104399.7,
      openInterestUsd: 3300.17 * 104399.7,
      // The spec's volume24h, 500,000,000.42 ETH valued at the index, is $52 trillion, past any
      // market's day: a placeholder, so unknown.
      volume24hUsd: null,
      // The product's own takerFee (the spec's placeholder).
      takerFee: 0.004,
      observedAt: ETHEREAL_TIME,
    },
    markets: { "BTC/USDE:USDE": { fundingRate: 0.0000102, indexPrice: 104399.7, openInterestUsd: 120.5 * 104399.7 } },
    listed: ["BTC/USDE:USDE", "ETH/USDE:USDE"],
    skipped: { ETHUSDE: "engine 1, not the perpetual engine (SYNTHETIC)" },
    excluded: { notLinearPerp: 1, inactive: 0, unlisted: 0, invalid: 0, noFundingRow: 0 },
    requests: [
      "GET /v1/product",
      `GET /v1/funding/projected-rate?productIds=${ETHEREAL_BTC_ID}`,
      `GET /v1/product/market-price?productIds=${ETHEREAL_BTC_ID}`,
    ],
    variants: [
      {
        name: "loses only prices, open interest and volume when market-price fails",
        routes: () => without(etherealRoutes(), "/v1/product/market-price"),
        markets: { "ETH/USDE:USDE": { fundingRate: 0.000078771, indexPrice: null, openInterestUsd: null, volume24hUsd: null } },
        warnings: ["market-price"],
      },
      {
        name: "a product the projected rates leave out keeps no rate",
        routes: () =>
          editBody<{ data: Row[] }>(etherealRoutes(), "/v1/funding/projected-rate", (body) => ({
            ...body,
            data: body.data.filter((row) => row.productId !== ETHEREAL_BTC_ID),
          })),
        markets: { "BTC/USDE:USDE": { fundingRate: null }, "ETH/USDE:USDE": { fundingRate: 0.000078771 } },
        excluded: { noFundingRow: 1 },
      },
      {
        name: "drops a product whose projected rate is garbled",
        routes: () =>
          editBody<{ data: Row[] }>(etherealRoutes(), "/v1/funding/projected-rate", (body) => ({
            ...body,
            data: body.data.map((row) => (row.productId === ETHEREAL_BTC_ID ? row : { ...row, fundingRateProjected1h: "soon" })),
          })),
        markets: { "ETH/USDE:USDE": null, "BTC/USDE:USDE": { fundingRate: 0.0000102 } },
        excluded: { invalid: 1 },
      },
      {
        name: "is stale when the projected rates fail",
        routes: () => without(etherealRoutes(), "/v1/funding/projected-rate"),
        stale: /404/,
      },
    ],
  },
  {
    venue: "bitfinex",
    fixture:
      "DOCUMENTED EXAMPLE: the tBTCF0:USTF0 status/deriv row ccxt's bitfinex source quotes (2023-08-04). SYNTHETIC in its " +
      "layout: the ETH, EUR, GERMANY40IX, LTC (BTC-settled) and paper TESTBTC rows, the conf market list and the tickers.",
    routes: bitfinexRoutes,
    now: BITFINEX_TIME + 1_000,
    reference: {
      market: "BTC/USDT:USDT", venueMarketId: "tBTCF0:USTF0",
      // CURRENT_FUNDING: the current 8-hour period's rate, charged at the next funding event.
      fundingRate: 0.00014548,
      // NEXT_FUNDING_ACCRUED: accrued so far toward the period after.
      predictedFundingRate: 0.00000527,
      // CLAMP_MAX; CLAMP_MIN (0.0005) is a dead band, not a floor.
      rateCap: 0.0025, rateFloor: null,
      fundingIntervalHours: 8, fundingIntervalSource: "protocol",
      nextFundingAt: BITFINEX_NEXT_FUNDING,
      markPrice: 29278.8925,
      // SPOT_PRICE, not DERIV_PRICE (the perpetual's own, 29297.85).
      indexPrice: 29277.5,
      openInterestUsd: 9636.07644994 * 29278.8925,
      // The ticker's VOLUME (BTC) at the mark: the status rows carry none.
      volume24hUsd: 1250.5 * 29278.8925,
      // No published schedule found: ccxt's market taker.
      takerFee: 0.002,
      observedAt: BITFINEX_TIME,
    },
    markets: {
      "ETH/USDT:USDT": { fundingRate: -0.00002, predictedFundingRate: -0.0000012, observedAt: BITFINEX_TIME - 1_000 },
      "EUR/USDT:USDT": { fundingRate: 0.0000488, underlyingClass: "fx" },
      "GERMANY40IX/USDT:USDT": { fundingRate: 0.0001012, underlyingClass: "index" },
    },
    listed: ["BTC/USDT:USDT", "ETH/USDT:USDT", "EUR/USDT:USDT", "GERMANY40IX/USDT:USDT"],
    skipped: { BTCUST: "spot", "tLTCF0:BTCF0": "settled in BTC", "tTESTBTCF0:TESTUSDTF0": "paper pair, not in the market list" },
    excluded: { notLinearPerp: 2, inactive: 0, unlisted: 1, invalid: 0, noFundingRow: 0 },
    requests: [
      `GET ${BITFINEX_CONF_PATH}`,
      "GET /v2/status/deriv?keys=ALL",
      "GET /v2/tickers?symbols=tBTCF0:USTF0,tETHF0:USTF0,tEURF0:USTF0,tGERMANY40IXF0:USTF0,tLTCF0:BTCF0",
    ],
    variants: [
      {
        name: "drops a row whose rate is garbled; a garbled cap or price costs that field",
        routes: () =>
          editBody<unknown[][]>(bitfinexRoutes(), "/v2/status/deriv", (rows) =>
            rows.map((row) => {
              if (row[0] === "tETHF0:USTF0") return row.map((field, index) => (index === 12 ? "n/a" : field));
              if (row[0] === "tBTCF0:USTF0") return row.map((field, index) => (index === 23 ? "∞" : index === 15 ? "?" : field));
              return row;
            }),
          ),
        markets: {
          "ETH/USDT:USDT": null,
          "BTC/USDT:USDT": { fundingRate: 0.00014548, rateCap: null, markPrice: null, openInterestUsd: null },
        },
        excluded: { invalid: 1 },
      },
      {
        name: "loses only the volume when the tickers fail",
        routes: () => without(bitfinexRoutes(), "/v2/tickers"),
        markets: { "BTC/USDT:USDT": { fundingRate: 0.00014548, volume24hUsd: null, openInterestUsd: 9636.07644994 * 29278.8925 } },
        warnings: ["tickers"],
      },
      {
        name: "a market without a status row keeps its listing and no rate",
        routes: () => editBody<unknown[][]>(bitfinexRoutes(), "/v2/status/deriv", (rows) => rows.filter((row) => row[0] !== "tEURF0:USTF0")),
        markets: { "EUR/USDT:USDT": { fundingRate: null } },
        excluded: { noFundingRow: 1 },
      },
      {
        name: "is stale on an answer that is not a list of rows",
        routes: () => editBody(bitfinexRoutes(), "/v2/status/deriv", () => ({ status: "maintenance" })),
        // ccxt's bitfinex class refuses any answer that is not a list before the connector sees it.
        stale: /ExchangeError: bitfinex \{"status":"maintenance"\}/,
      },
    ],
  },
  {
    venue: "cryptocom",
    fixture:
      "DOCUMENTED EXAMPLES: BTCUSD-PERP's valuation point ccxt's cryptocom source quotes (2023-06-27) and its get-tickers row " +
      "from Crypto.com's docs. SYNTHETIC in the docs' shapes: the instrument list, ETH's valuation and ticker.",
    routes: cryptocomRoutes,
    now: CRYPTOCOM_TIME + 1_000,
    requestsInAnyOrder: true,
    reference: {
      // Quoted and settled in USD against Crypto.com's multi-asset margin (alsoDollars).
      market: "BTC/USD:USD", venueMarketId: "BTCUSD-PERP",
      // The `funding_rate` valuation: the hour's rate, settled at the end of the hour.
      fundingRate: -0.000001884,
      // `estimated_funding_rate` would be a second request a perpetual: not asked.
      predictedFundingRate: null,
      rateCap: null, rateFloor: null,
      fundingIntervalHours: 1, fundingIntervalSource: "protocol",
      nextFundingAt: Date.UTC(2023, 5, 27, 20),
      // The tickers carry no mark or index.
      markPrice: null,
      indexPrice: null,
      // `oi` (BTC) at the last trade `a`.
      openInterestUsd: 12345.12 * 51174.5,
      volume24hUsd: 26370000.12,
      // No published schedule read: ccxt's market taker.
      takerFee: 0.005,
      observedAt: CRYPTOCOM_TIME,
    },
    markets: { "ETH/USD:USD": { fundingRate: 0.0000125, nextFundingAt: Date.UTC(2023, 5, 27, 19), observedAt: CRYPTOCOM_TIME - 60_000 } },
    listed: ["BTC/USD:USD", "ETH/USD:USD"],
    skipped: { "DOGEUSD-PERP": "not tradable (no valuation asked)", BTC_USD: "spot", "BTCUSD-260327": "dated future" },
    excluded: { notLinearPerp: 2, inactive: 1, unlisted: 0, invalid: 0, noFundingRow: 0 },
    requests: [
      "GET /exchange/v1/public/get-instruments",
      "GET /exchange/v1/public/get-tickers",
      "GET /exchange/v1/public/get-valuations?instrument_name=BTCUSD-PERP&valuation_type=funding_rate&count=1",
      "GET /exchange/v1/public/get-valuations?instrument_name=ETHUSD-PERP&valuation_type=funding_rate&count=1",
    ],
    variants: [
      {
        name: "a failed valuation costs that market its rate and says so; the others stand",
        routes: () => [cryptocomValuationRoute("ETHUSD-PERP", { status: 500, body: "Internal Server Error" }), ...cryptocomRoutes()],
        markets: { "BTC/USD:USD": { fundingRate: -0.000001884 }, "ETH/USD:USD": { fundingRate: null } },
        excluded: { noFundingRow: 1 },
        warnings: [/^ticker: 1 of 2 failed \(ETHUSD-PERP\): /],
      },
      {
        name: "a valuation answering for another instrument is a failed one, not that instrument's rate",
        routes: () => [
          cryptocomValuationRoute("ETHUSD-PERP", { body: fixtureJson("cryptocom/get-valuations_funding_BTCUSD-PERP_2023-06-27_ccxt-doc.json") }),
          ...cryptocomRoutes(),
        ],
        markets: { "ETH/USD:USD": { fundingRate: null } },
        warnings: ["ticker"],
      },
      {
        name: "loses only open interest and volume when the tickers fail",
        routes: () => without(cryptocomRoutes(), "/exchange/v1/public/get-tickers"),
        markets: { "BTC/USD:USD": { fundingRate: -0.000001884, openInterestUsd: null, volume24hUsd: null } },
        warnings: ["tickers"],
      },
      {
        name: "drops a market whose rate is garbled",
        routes: () => [
          cryptocomValuationRoute("ETHUSD-PERP", {
            body: { id: -1, method: "public/get-valuations", code: 0, result: { data: [{ v: "soon", t: CRYPTOCOM_TIME }], instrument_name: "ETHUSD-PERP" } },
          }),
          ...cryptocomRoutes(),
        ],
        markets: { "ETH/USD:USD": null },
        excluded: { invalid: 1 },
      },
    ],
  },
  {
    venue: "whitebit",
    fixture:
      "DOCUMENTED EXAMPLES: the 0G_PERP futures row ccxt's whitebit source quotes (2026-03) and the BTC_PERP row of WhiteBIT's " +
      "futures-list docs (2022). SYNTHETIC in that layout: the ETH, GOLD (tradfi) and DELISTED rows and the market list.",
    routes: whitebitRoutes,
    now: WHITEBIT_NOW,
    reference: {
      market: "0G/USDT:USDT", venueMarketId: "0G_PERP",
      fundingRate: -0.00000778,
      // WhiteBIT publishes no forecast and no bound on the rate (`brackets` are leverage tiers).
      predictedFundingRate: null,
      rateCap: null, rateFloor: null,
      // funding_interval_minutes: 240.
      fundingIntervalHours: 4, fundingIntervalSource: "venue",
      nextFundingAt: WHITEBIT_0G_NEXT,
      // The list has no mark; open interest (0G) is valued at the index.
      markPrice: null,
      indexPrice: 0.61,
      openInterestUsd: 3721488 * 0.61,
      volume24hUsd: 1587952.6137,
      // No published schedule found: the perpetual's own row in the market list (0.055 %, synthetic).
      takerFee: 0.00055,
      // No payload time: the refresh's.
      observedAt: WHITEBIT_NOW,
    },
    markets: {
      // The docs' example states 300 minutes: read as stated.
      "BTC/USDT:USDT": { fundingRate: 0.000044889033693137, fundingIntervalHours: 5, fundingIntervalSource: "venue", nextFundingAt: 1660665600000 },
      // A row without funding_interval_minutes: the interval is unknown, not assumed.
      "ETH/USDT:USDT": { fundingRate: 0.0001, fundingIntervalHours: null, fundingIntervalSource: null },
      "GOLD/USDT:USDT": { fundingIntervalHours: 8, underlyingClass: "commodity" },
    },
    listed: ["0G/USDT:USDT", "BTC/USDT:USDT", "ETH/USDT:USDT", "GOLD/USDT:USDT"],
    skipped: { BTC_USDT: "spot", OLD_PERP: "trading disabled", DELISTED_PERP: "not in the market list" },
    excluded: { notLinearPerp: 1, inactive: 1, unlisted: 1, invalid: 0, noFundingRow: 0 },
    requests: ["GET /api/v4/public/markets", "GET /api/v4/public/futures"],
    variants: [
      {
        name: "drops a row whose rate is garbled; a garbled interval or price costs that field",
        routes: () =>
          editBody<{ result: Row[] }>(whitebitRoutes(), "/api/v4/public/futures", (body) => ({
            ...body,
            result: patchRows(body.result, { ETH_PERP: { funding_rate: "n/a" }, "0G_PERP": { funding_interval_minutes: "4h", index_price: "?" } }, "ticker_id"),
          })),
        markets: {
          "ETH/USDT:USDT": null,
          "0G/USDT:USDT": { fundingRate: -0.00000778, fundingIntervalHours: null, indexPrice: null, openInterestUsd: null },
        },
        excluded: { invalid: 1 },
      },
      {
        name: "a perpetual without a futures row keeps its listing and no rate",
        routes: () =>
          editBody<{ result: Row[] }>(whitebitRoutes(), "/api/v4/public/futures", (body) => ({
            ...body,
            result: body.result.filter((row) => row.ticker_id !== "GOLD_PERP"),
          })),
        markets: { "GOLD/USDT:USDT": { fundingRate: null } },
        excluded: { noFundingRow: 1 },
      },
      {
        name: "is stale on an answer without its list of rows",
        routes: () => editBody(whitebitRoutes(), "/api/v4/public/futures", () => ({ success: true, message: null, result: null })),
        stale: /expected a list under "result"/,
      },
    ],
  },
  {
    venue: "hitbtc",
    fixture:
      "DOCUMENTED EXAMPLES: the BTCUSDT_PERP futures-info row ccxt's hitbtc source quotes (2024-12-20) and the AAVEUSDT_PERP " +
      "and MANAUSDT symbol rows of its comments. SYNTHETIC in those layouts: the other symbol and futures-info rows, every " +
      "funding-history row and the tickers.",
    routes: hitbtcRoutes,
    now: HITBTC_TIME + 1_000,
    requestsInAnyOrder: true,
    reference: {
      market: "BTC/USDT:USDT", venueMarketId: "BTCUSDT_PERP",
      // The current period's rate, charged at next_funding_time; the indicative one is the period after's estimate.
      fundingRate: -0.000183473092423284,
      predictedFundingRate: -0.00027495203277752,
      rateCap: null, rateFloor: null,
      // The last settlement (00:00) and the next (08:00) of its history row, the live row's next too.
      fundingIntervalHours: 8, fundingIntervalSource: "schedule",
      nextFundingAt: HITBTC_NEXT,
      markPrice: 97291.83,
      indexPrice: 97298.61,
      openInterestUsd: 94.1503 * 97291.83,
      // The ticker's volume_quote (USDT).
      volume24hUsd: 11723456.3,
      // No published schedule read: the contract's own take_rate.
      takerFee: 0.0005,
      observedAt: HITBTC_TIME,
    },
    markets: {
      "ETH/USDT:USDT": { fundingIntervalHours: 4, fundingIntervalSource: "schedule", volume24hUsd: 7136640 },
      // The history lists the settlement before the last: the live row's next is one interval on.
      "AAVE/USDT:USDT": { fundingRate: -0.0002, fundingIntervalHours: 8, fundingIntervalSource: "schedule", volume24hUsd: null },
      // No history row: the interval is unknown, not assumed.
      "SOL/USDT:USDT": { fundingRate: 0.00005, fundingIntervalHours: null, fundingIntervalSource: null },
    },
    listed: ["AAVE/USDT:USDT", "BTC/USDT:USDT", "ETH/USDT:USDT", "SOL/USDT:USDT"],
    skipped: { MANAUSDT: "spot", TONUSDT_PERP: "status expired (ccxt marks it active)" },
    excluded: { notLinearPerp: 1, inactive: 1, unlisted: 0, invalid: 0, noFundingRow: 0 },
    requests: [
      "GET /api/3/public/symbol",
      "GET /api/3/public/futures/info",
      "GET /api/3/public/futures/history/funding?limit=1",
      `GET /api/3/public/ticker?symbols=${HITBTC_TICKER_SYMBOLS}`,
    ],
    variants: [
      {
        name: "loses only the intervals when the funding history fails",
        routes: () => without(hitbtcRoutes(), "/api/3/public/futures/history/funding"),
        markets: { "BTC/USDT:USDT": { fundingRate: -0.000183473092423284, fundingIntervalHours: null, fundingIntervalSource: null } },
        warnings: ["funding history"],
      },
      {
        name: "a history row whose next settlement is not the live row's gives no interval",
        routes: () =>
          editBody<Record<string, Row[]>>(hitbtcRoutes(), "/api/3/public/futures/history/funding", (body) => ({
            ...body,
            BTCUSDT_PERP: [{ ...body.BTCUSDT_PERP?.[0], timestamp: "2024-12-19T08:00:00.100Z", next_funding_time: "2024-12-19T16:00:00.000Z" }],
          })),
        markets: { "BTC/USDT:USDT": { fundingIntervalHours: null } },
      },
      {
        name: "loses only the volume when the tickers fail",
        routes: () => without(hitbtcRoutes(), "/api/3/public/ticker"),
        markets: { "BTC/USDT:USDT": { fundingRate: -0.000183473092423284, volume24hUsd: null, fundingIntervalHours: 8 } },
        warnings: ["tickers"],
      },
      {
        name: "drops a row whose rate is garbled; a garbled forecast or price costs that field",
        routes: () =>
          editBody<Record<string, Row>>(hitbtcRoutes(), "/api/3/public/futures/info", (body) => ({
            ...body,
            ETHUSDT_PERP: { ...body.ETHUSDT_PERP, funding_rate: "n/a" },
            BTCUSDT_PERP: { ...body.BTCUSDT_PERP, indicative_funding_rate: "?", mark_price: "-" },
          })),
        markets: {
          "ETH/USDT:USDT": null,
          "BTC/USDT:USDT": { fundingRate: -0.000183473092423284, predictedFundingRate: null, markPrice: null, openInterestUsd: null },
        },
        excluded: { invalid: 1 },
      },
      {
        name: "a perpetual without a futures-info row keeps its listing and no rate",
        routes: () =>
          editBody<Record<string, Row>>(hitbtcRoutes(), "/api/3/public/futures/info", (body) => {
            const { SOLUSDT_PERP: _dropped, ...rest } = body;
            return rest;
          }),
        markets: { "SOL/USDT:USDT": { fundingRate: null } },
        excluded: { noFundingRow: 1 },
      },
      {
        name: "is stale on an answer that is not an object of rows",
        routes: () => editBody(hitbtcRoutes(), "/api/3/public/futures/info", () => []),
        stale: /expected an object of futures rows by contract/,
      },
    ],
  },
  {
    venue: "toobit",
    fixture:
      "DOCUMENTED EXAMPLES: the BTC-SWAP-USDT funding-rate (with period and bounds), mark-price and 24h contract-ticker rows of " +
      "Toobit's USDT-M market-data docs, and ccxt's older funding row (2025-08-23, a variant). SYNTHETIC: exchangeInfo and the ETH and DOGE rows.",
    routes: toobitRoutes,
    now: TOOBIT_NOW,
    requestsInAnyOrder: true,
    reference: {
      market: "BTC/USDT:USDT", venueMarketId: "BTC-SWAP-USDT",
      fundingRate: 0.0018099173553719,
      // Toobit publishes no forecast.
      predictedFundingRate: null,
      rateCap: 0.003, rateFloor: -0.003,
      // period "8H".
      fundingIntervalHours: 8, fundingIntervalSource: "venue",
      nextFundingAt: TOOBIT_NEXT,
      markPrice: 17042.54471,
      // The index is keyed by index name in its own answer, and open interest is one request a contract: not asked.
      indexPrice: null,
      openInterestUsd: null,
      // The ticker's qv (USDT).
      volume24hUsd: 15.3,
      // No published schedule, and no taker in the market list.
      takerFee: null,
      observedAt: TOOBIT_NOW,
    },
    markets: { "ETH/USDT:USDT": { fundingRate: -0.0002, fundingIntervalHours: 4, rateCap: 0.02, rateFloor: -0.02, markPrice: 1250.5, volume24hUsd: 6250000 } },
    listed: ["BTC/USDT:USDT", "ETH/USDT:USDT"],
    skipped: { BTCUSDT: "spot", "DOGE-SWAP-USDT": "status HALT" },
    excluded: { notLinearPerp: 1, inactive: 1, unlisted: 0, invalid: 0, noFundingRow: 0 },
    requests: ["GET /api/v1/exchangeInfo", "GET /api/v1/futures/fundingRate", "GET /quote/v1/markPrice", "GET /quote/v1/contract/ticker/24hr"],
    variants: [
      {
        name: "an answer without period or bounds (ccxt's older example) leaves the interval and bounds unknown, not assumed",
        routes: () =>
          editBody<Row[]>(toobitRoutes(), "/api/v1/futures/fundingRate", (rows) => [
            ...fixtureJson<Row[]>("toobit/fundingRate_BTC-SWAP-USDT_2025-08-23_ccxt-doc.json"),
            ...rows.filter((row) => row.symbol !== "BTC-SWAP-USDT"),
          ]),
        markets: {
          "BTC/USDT:USDT": { fundingRate: 0.0001071148112848, fundingIntervalHours: null, fundingIntervalSource: null, rateCap: null, rateFloor: null, nextFundingAt: 1755964800000 },
        },
      },
      {
        name: "loses only the mark when the mark prices fail, only the volume when the tickers do",
        routes: () => without(toobitRoutes(), "/quote/v1/markPrice", "/quote/v1/contract/ticker/24hr"),
        markets: { "BTC/USDT:USDT": { fundingRate: 0.0018099173553719, fundingIntervalHours: 8, markPrice: null, volume24hUsd: null } },
        warnings: ["mark prices", "tickers"],
      },
      {
        name: "drops a row whose rate is garbled; a garbled period or bound costs that field",
        routes: () =>
          editBody<Row[]>(toobitRoutes(), "/api/v1/futures/fundingRate", (rows) =>
            patchRows(rows, { "ETH-SWAP-USDT": { rate: "n/a" }, "BTC-SWAP-USDT": { period: "eight hours", fundingRateCap: "?" } }),
          ),
        markets: { "ETH/USDT:USDT": null, "BTC/USDT:USDT": { fundingRate: 0.0018099173553719, fundingIntervalHours: null, rateCap: null, rateFloor: -0.003 } },
        excluded: { invalid: 1 },
      },
      {
        name: "a contract without a funding row keeps its listing and no rate",
        routes: () => editBody<Row[]>(toobitRoutes(), "/api/v1/futures/fundingRate", (rows) => rows.filter((row) => row.symbol !== "ETH-SWAP-USDT")),
        markets: { "ETH/USDT:USDT": { fundingRate: null } },
        excluded: { noFundingRow: 1 },
      },
      {
        name: "is stale on an answer that is not a list of rows",
        routes: () => editBody(toobitRoutes(), "/api/v1/futures/fundingRate", () => ({ code: 200 })),
        stale: /expected a list under "data"/,
      },
    ],
  },
  {
    venue: "apex",
    fixture:
      "DOCUMENTED EXAMPLES: the BTC-USDT contract ccxt's apex source quotes, the BTCUSDT ticker of ApeX's API docs (placeholder figures, " +
      "a bare clock time), and ccxt's documented BTCUSDT websocket ticker (2022-08-26, a variant). SYNTHETIC: the ETH, DOGE and NEWX contracts " +
      "and the ETH, DOGE and XAU tickers. No REAL recording of either answer was found.",
    routes: apexRoutes,
    now: APEX_NOW,
    reference: {
      market: "BTC/USDT:USDT", venueMarketId: "BTC-USDT",
      // The hour's running rate, so also the forecast (the row's predictedFundingRate is not read).
      fundingRate: 0,
      predictedFundingRate: 0,
      // The contract's fundingMaxRate / fundingMinRate, per hour like the rate.
      rateCap: 0.000234, rateFloor: -0.000234,
      // Hourly by protocol rule: no field states it.
      fundingIntervalHours: 1, fundingIntervalSource: "protocol",
      // "10:00:00" at 09:20Z names the next whole hour.
      nextFundingAt: APEX_NEXT,
      markPrice: 43513.5,
      indexPrice: 40828.94,
      // openInterest counts BTC, valued at the mark: the docs' placeholder (2,036,854,775,808 BTC,
      // $8.9e16) is past any market's, so unknown (the ETH row below values a real-sized one).
      openInterestUsd: null,
      // turnover24h, in USDT (volume24h is 169.317 BTC).
      volume24hUsd: 5626085.23749999,
      // The published standard taker fee (venue-fees.ts), not ccxt's market figure.
      takerFee: 0.0005,
      observedAt: APEX_NOW,
    },
    markets: {
      "ETH/USDT:USDT": {
        fundingRate: -0.00000501, predictedFundingRate: -0.00000501, rateCap: 0.000469, rateFloor: -0.000469, fundingIntervalHours: 1,
        nextFundingAt: APEX_NEXT, markPrice: 2523.2, openInterestUsd: 10000 * 2523.2, volume24hUsd: 201856000,
      },
    },
    listed: ["BTC/USDT:USDT", "ETH/USDT:USDT"],
    skipped: { "DOGE-USDT": "trading and funding settlement off", "NEWX-USDT": "pre-launch", XAUUSDT: "a ticker of a contract the market list lacks" },
    excluded: { notLinearPerp: 0, inactive: 2, unlisted: 1, invalid: 0, noFundingRow: 0 },
    requests: ["GET /api/v3/symbols", "GET /api/v3/data/all-ticker-info"],
    variants: [
      {
        name: "reads an ISO nextFundingTime (ccxt's documented ticker), and has no open interest in dollars without a mark",
        routes: () =>
          editBody<{ data: Row[] }>(apexRoutes(), "/api/v3/data/all-ticker-info", (body) => ({
            ...body,
            data: [fixtureJson<{ data: Row }>("apex/instrumentInfo_BTCUSDT_2022-08-26_ccxt-doc.json").data, ...body.data.filter((row) => row.symbol !== "BTCUSDT")],
          })),
        markets: {
          "BTC/USDT:USDT": {
            fundingRate: 0.0000125, nextFundingAt: Date.UTC(2022, 7, 26, 8), markPrice: null, indexPrice: 21409.82, openInterestUsd: null, volume24hUsd: 1334891.4545,
          },
        },
      },
      {
        name: "a clock time that is not the next whole hour gives no settlement time rather than a guessed day",
        routes: () =>
          editBody<{ data: Row[] }>(apexRoutes(), "/api/v3/data/all-ticker-info", (body) => ({ ...body, data: patchRows(body.data, { BTCUSDT: { nextFundingTime: "13:00:00" } }) })),
        markets: { "BTC/USDT:USDT": { fundingRate: 0, nextFundingAt: null, fundingIntervalHours: 1 } },
      },
      {
        name: "drops a row whose rate or settlement time is garbled; a garbled mark costs the mark and the open interest",
        routes: () =>
          editBody<{ data: Row[] }>(apexRoutes(), "/api/v3/data/all-ticker-info", (body) => ({
            ...body,
            data: patchRows(body.data, { ETHUSDT: { nextFundingTime: "soon" }, BTCUSDT: { markPrice: "?" } }),
          })),
        markets: { "ETH/USDT:USDT": null, "BTC/USDT:USDT": { fundingRate: 0, markPrice: null, openInterestUsd: null, indexPrice: 40828.94 } },
        excluded: { invalid: 1 },
      },
      {
        name: "a contract without a ticker keeps its listing and no rate",
        routes: () => editBody<{ data: Row[] }>(apexRoutes(), "/api/v3/data/all-ticker-info", (body) => ({ ...body, data: body.data.filter((row) => row.symbol !== "ETHUSDT") })),
        markets: { "ETH/USDT:USDT": { fundingRate: null } },
        excluded: { noFundingRow: 1 },
      },
      {
        name: "is stale on an answer that is not a list of rows",
        routes: () => editBody(apexRoutes(), "/api/v3/data/all-ticker-info", () => ({ data: {}, timeCost: 1 })),
        stale: /expected a list under "data"/,
      },
    ],
  },
  ...HIP3_EXPECTATIONS,
];

function grvtTicker(instrument: string, reply: ReplayRoute["reply"]): ReplayRoute {
  return { method: "POST", path: "/full/v1/ticker", body: { instrument }, reply };
}

/** The REAL metaAndAssetCtxs capture with a SYNTHETIC kPEPE entry appended. */
function metaWithKPepe(): unknown {
  const [meta, contexts] = fixtureJson<[{ universe: unknown[] } & Row, unknown[]]>("hyperliquid/metaAndAssetCtxs_2026-09_BTC-ETH-SOL-HYPE.json");
  return [
    { ...meta, universe: [...meta.universe, { szDecimals: 0, name: "kPEPE", maxLeverage: 10, marginTableId: 52 }] },
    [
      ...contexts,
      {
        funding: "-0.0000217",
        openInterest: "3000000000.0",
        prevDayPx: "0.0104",
        dayNtlVlm: "25000000.0",
        premium: "-0.0001",
        oraclePx: "0.010531",
        markPx: "0.010529",
        midPx: "0.01053",
        impactPxs: ["0.010528", "0.01053"],
        dayBaseVlm: "2400000000.0",
      },
    ],
  ];
}
