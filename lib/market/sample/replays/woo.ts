/*
 * WOO X v3 public API (`https://api.woox.io`): the healthy answers a refresh gets.
 *
 * - REAL, unaltered (fixtures/woo/, from ccxt's static test recordings, ccxt/ccxt
 *   ts/src/test/static/response/woo.json @ 0094a48beb788f92ae50d788bf957e49c07dac6f; see
 *   fixtures/woo/SOURCES.md): the /v3/public/fundingRate answer with PERP_BTC_USDT's row
 *   (answered 2025-07-04 10:13:57.798Z; next settlement 16:00Z, 8h), the /v3/public/instruments
 *   answer with SPOT_AAVE_USDT's row (2025-07-03), and a /v3/public/futures answer with
 *   PERP_BTC_USDT and PERP_ETH_USDT (2026-08-14 07:05Z, so of another day: the tests replay it,
 *   this route set does not).
 * - SYNTHETIC, in the recordings' shape and types with made-up numbers, written for the real
 *   funding answer's moment: the PERP instrument rows (BTC, ETH, SOL and the suspended OLD), the
 *   funding rows of ETH (negative), SOL (its interval just went from 8h to 4h: next settlement
 *   12:00Z) and OLD, and the /v3/public/futures rows (BTC's mark near the real 2025-07-04 trades
 *   of the same ccxt file, 108.7k–109.0k).
 *
 * In the offline sample at WOO_TIME, the real funding answer's `timestamp`.
 */
import type { ReplayRoute } from "../../replay-fetch";
import { fixtureJson } from "../read-fixture";

type Row = Record<string, unknown>;
interface V3Answer {
  success: boolean;
  data: { rows: Row[] };
  timestamp: number;
}

/** The REAL /v3/public/fundingRate answer's `timestamp`: 2025-07-04 10:13:57.798Z. */
export const WOO_TIME = 1751624037798;

const HOUR = 3_600_000;
/** The real BTC row's settlements: the last at 08:00Z, the next at 16:00Z. */
const LAST_SETTLEMENT = 1751616000000;
const NEXT_8H = 1751644800000;

/** A PERP row in the field set of the real SPOT_AAVE_USDT instrument row (SYNTHETIC values). */
function perpInstrument(base: string, overrides: Row): Row {
  return {
    symbol: `PERP_${base}_USDT`,
    status: "TRADING",
    baseAsset: base,
    baseAssetMultiplier: 1,
    quoteAsset: "USDT",
    quoteMin: "0",
    quoteMax: "100000",
    quoteTick: "0.01",
    baseMin: "0.01",
    baseMax: "1000",
    baseTick: "0.01",
    minNotional: "10",
    bidCapRatio: "1.1",
    bidFloorRatio: null,
    askCapRatio: null,
    askFloorRatio: "0.9",
    orderMode: "NORMAL",
    impactNotional: null,
    isAllowedRpi: false,
    tickGranularity: null,
    ...overrides,
  };
}

/** A funding row in the real BTC row's field set and types (SYNTHETIC values). */
function fundingRow(base: string, overrides: Row): Row {
  return {
    symbol: `PERP_${base}_USDT`,
    estFundingRate: "0.0001",
    estFundingRateTimestamp: 1751623979022,
    lastFundingRate: "0.0001",
    lastFundingRateTimestamp: LAST_SETTLEMENT,
    nextFundingTime: NEXT_8H,
    lastFundingIntervalHours: 8,
    estFundingIntervalHours: 8,
    ...overrides,
  };
}

/** A /v3/public/futures row in the real rows' field set and types (SYNTHETIC values). */
function futuresRow(base: string, overrides: Row): Row {
  return {
    symbol: `PERP_${base}_USDT`,
    indexPrice: "1",
    markPrice: "1",
    estFundingRate: "0.0001",
    lastFundingRate: "0.0001",
    openInterest: "0",
    "24hOpen": "1",
    "24hClose": "1",
    "24hHigh": "1",
    "24hLow": "1",
    "24hVolume": "0",
    "24hAmount": "0",
    nextFundingTime: NEXT_8H,
    ...overrides,
  };
}

export function wooRoutes(): ReplayRoute[] {
  const instruments = fixtureJson<V3Answer>("woo/instruments_v3_SPOT_AAVE_USDT_2025-07-03.json");
  const funding = fixtureJson<V3Answer>("woo/fundingRate_v3_PERP_BTC_USDT_2025-07-04.json");
  const sol = { estFundingRate: "0.00021", lastFundingRate: "0.00046", nextFundingTime: NEXT_8H - 4 * HOUR };
  return [
    {
      path: "/v3/public/instruments",
      reply: {
        body: {
          ...instruments,
          data: {
            rows: [
              ...instruments.data.rows,
              perpInstrument("BTC", { quoteTick: "0.1", baseMin: "0.0001", baseMax: "100", baseTick: "0.0001" }),
              perpInstrument("ETH", { baseMin: "0.001", baseTick: "0.001" }),
              perpInstrument("SOL", { quoteTick: "0.001" }),
              perpInstrument("OLD", { status: "SUSPENDED" }),
            ],
          },
        },
      },
    },
    {
      path: "/v3/public/fundingRate",
      reply: {
        body: {
          ...funding,
          data: {
            rows: [
              ...funding.data.rows,
              fundingRow("ETH", { estFundingRate: "-0.00001237", lastFundingRate: "0.00000512" }),
              // The last period ran 8h, the current one 4h.
              fundingRow("SOL", { ...sol, estFundingIntervalHours: 4 }),
              fundingRow("OLD", { estFundingRate: "0", lastFundingRate: "0" }),
            ],
          },
        },
      },
    },
    {
      path: "/v3/public/futures",
      reply: {
        body: {
          success: true,
          data: {
            rows: [
              futuresRow("BTC", {
                indexPrice: "108996.4",
                markPrice: "108985.3",
                estFundingRate: "-0.00000441",
                lastFundingRate: "-0.00004953",
                openInterest: "251.38812",
                "24hOpen": "109620",
                "24hClose": "108990",
                "24hHigh": "110200",
                "24hLow": "108510",
                "24hVolume": "412.50934",
                "24hAmount": "45012345.67",
              }),
              futuresRow("ETH", {
                indexPrice: "2584.31",
                markPrice: "2584.02",
                estFundingRate: "-0.00001237",
                lastFundingRate: "0.00000512",
                openInterest: "3120.4471",
                "24hOpen": "2601.5",
                "24hClose": "2584.1",
                "24hHigh": "2630",
                "24hLow": "2570.2",
                "24hVolume": "8120.334",
                "24hAmount": "21001234.2",
              }),
              futuresRow("SOL", {
                indexPrice: "151.02",
                markPrice: "151.11",
                ...sol,
                openInterest: "40120.5",
                "24hOpen": "149.8",
                "24hClose": "151.1",
                "24hHigh": "152.9",
                "24hLow": "148.7",
                "24hVolume": "61234.1",
                "24hAmount": "9220000.5",
              }),
            ],
          },
          timestamp: WOO_TIME + 12,
        },
      },
    },
  ];
}
