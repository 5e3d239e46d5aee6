/*
 * GRVT's healthy answers (market-data.grvt.io, POST JSON). Sources: lib/market/fixtures/grvt/SOURCES.md.
 *
 * - REAL: the `all_instruments` rows, AAVE_USDT_Perp with its envelope (ccxt/ccxt
 *   ts/src/test/static/response/grvt.json @ 013f055f719248392ded4f2027f9ca4cbe0c6ccb) and
 *   BTC, ADA, ETH and SUI (ccxt/ccxt ts/src/test/static/markets/grvt.json @
 *   81fc344835fb69dd88add57da65e5ce58ceffdd1), put in one `{"result": [...]}` here. Every row
 *   states `funding_interval_hours` 8 and percent-looking bounds ("0.3", "0.75").
 * - DOCUMENTED EXAMPLE: the BTC_USDT_Perp `ticker` answer, copied from ccxt 4.5.84's fetchTicker
 *   comment (js/src/grvt.js), a mainnet-looking answer of 2025-12-03 15:12Z; no recording of a
 *   GRVT ticker was found.
 * - SYNTHETIC: the ETH, ADA, SUI and AAVE tickers, in the same shape at the same moment (ETH's
 *   rate negative; SUI's carries `funding_interval_hours` as the WebSocket feed does); numbers made up.
 */
import type { ReplayRoute } from "../../replay-fetch";
import { fixtureJson, fixtureText } from "../read-fixture";

type Row = Record<string, unknown>;

/** The documented BTC ticker's `event_time` (ns) as ms: 2025-12-03 15:12:10.025Z. */
export const GRVT_TIME = 1764774730025;
const EVENT_TIME_NS = "1764774730025055205";
/** Its `next_funding_time`: 16:00Z, an 8h settlement. */
const NEXT_FUNDING_NS = "1764777600000000000";

function ticker(instrument: string, fields: Row): Row {
  return {
    result: {
      event_time: EVENT_TIME_NS,
      instrument,
      interest_rate: "0.0",
      forward_price: "0.0",
      ...fields,
      next_funding_time: NEXT_FUNDING_NS,
    },
  };
}

/** SYNTHETIC tickers beside the documented BTC one. */
const SYNTHETIC_TICKERS: Record<string, Row> = {
  ETH_USDT_Perp: ticker("ETH_USDT_Perp", {
    mark_price: "3052.41",
    index_price: "3053.02",
    last_price: "3052.3",
    funding_rate_8h_curr: "-0.0021",
    funding_rate_8h_avg: "-0.0018",
    buy_volume_24h_q: "98000000.5",
    sell_volume_24h_q: "101500000.25",
    open_interest: "21500.5",
    funding_rate: "-0.0021",
  }),
  ADA_USDT_Perp: ticker("ADA_USDT_Perp", {
    mark_price: "0.4418",
    index_price: "0.4419",
    last_price: "0.4418",
    funding_rate_8h_curr: "0.01",
    funding_rate_8h_avg: "0.01",
    buy_volume_24h_q: "2100000.0",
    sell_volume_24h_q: "1900000.0",
    open_interest: "5400000.0",
    funding_rate: "0.01",
  }),
  SUI_USDT_Perp: ticker("SUI_USDT_Perp", {
    mark_price: "1.6012",
    index_price: "1.6015",
    last_price: "1.601",
    funding_rate_8h_curr: "0.0054",
    funding_rate_8h_avg: "0.005",
    buy_volume_24h_q: "3300000.0",
    sell_volume_24h_q: "3100000.0",
    open_interest: "910000.0",
    funding_rate: "0.0054",
    funding_interval_hours: 8,
  }),
  AAVE_USDT_Perp: ticker("AAVE_USDT_Perp", {
    mark_price: "301.12",
    index_price: "301.2",
    last_price: "301.1",
    funding_rate_8h_curr: "0.0046",
    funding_rate_8h_avg: "0.0041",
    buy_volume_24h_q: "1500000.0",
    sell_volume_24h_q: "1450000.0",
    open_interest: "2100.4",
    funding_rate: "0.0046",
  }),
};

export function grvtRoutes(): ReplayRoute[] {
  const aave = fixtureJson<{ result: Row[] }>("grvt/all_instruments_AAVE_2026-01.json");
  const rows = fixtureJson<Row[]>("grvt/instruments_PERPETUAL_entries_ccxt-markets.json");
  return [
    { method: "POST", path: "/full/v1/all_instruments", reply: { body: { result: [...aave.result, ...rows] } } },
    {
      method: "POST",
      path: "/full/v1/ticker",
      body: { instrument: "BTC_USDT_Perp" },
      reply: { body: fixtureText("grvt/ticker_BTC_USDT_Perp_2025-12-03_ccxt-doc-example.json") },
    },
    ...Object.entries(SYNTHETIC_TICKERS).map(
      ([instrument, answer]): ReplayRoute => ({
        method: "POST",
        path: "/full/v1/ticker",
        body: { instrument },
        reply: { body: answer },
      }),
    ),
  ];
}
