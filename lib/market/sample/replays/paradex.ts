/*
 * Paradex replay. No mainnet recording of Paradex exists (lib/market/fixtures/paradex/SOURCES.md),
 * so Paradex is not in the offline sample. What is here:
 *
 * - REAL-TESTNET: the BTC-USD-PERP rows of `GET /v1/markets` (2024) and `GET /v1/markets/summary`
 *   (2024-06-14), recorded by ccxt's maintainers against Paradex's testnet (ccxt
 *   `ts/src/test/static/response/paradex.json` @ 058471012169086ef73c651c4f259cfe0cd6dd97): the
 *   venue's real field names, types and units, with testnet numbers.
 * - DOCUMENTED FIELD added to the real row: `funding_period_hours: 8`. The 2024 field set predates
 *   it; Paradex's OpenAPI documents it as a number and 8 as the default period. The unaltered row
 *   (no period, so no interval) is a variant of Paradex's row in tests/venues/venue-expectations.ts.
 * - SYNTHETIC: an ETH-USD-PERP market and summary row (made-up numbers in the documented shape).
 * - DOCUMENTED EXAMPLE: the BTC-USD-96000-C perpetual option that ccxt's paradex source quotes from
 *   the venue's market list, and a summary row for it with an empty `funding_rate` (ccxt's source
 *   says option rows carry one), to show that only perpetuals count.
 */
import type { ReplayRoute } from "../../replay-fetch";
import { fixtureJson } from "../read-fixture";

type Row = Record<string, unknown>;

/** `created_at` of the real testnet summary row: 2024-06-14T15:12:42.698Z. */
export const PARADEX_SUMMARY_CREATED_AT = 1718377962698;

function realMarket(): Row {
  const row = fixtureJson<{ results: Row[] }>("paradex/markets_BTC_2024-07_testnet.json").results[0];
  if (!row) throw new Error("Paradex markets fixture has no market");
  return row;
}

function realSummary(): Row {
  const row = fixtureJson<{ results: Row[] }>("paradex/markets_summary_BTC_2024-06-14_testnet.json").results[0];
  if (!row) throw new Error("Paradex summary fixture has no row");
  return row;
}

/** The documented perpetual option row quoted in ccxt's paradex.ts (`parseMarket` comment). */
const PERP_OPTION_MARKET: Row = {
  symbol: "BTC-USD-96000-C",
  base_currency: "BTC",
  quote_currency: "USD",
  settlement_currency: "USDC",
  order_size_increment: "0.001",
  price_tick_size: "0.01",
  min_notional: "100",
  open_at: "1736764200000",
  expiry_at: "0",
  asset_kind: "PERP_OPTION",
  market_kind: "cross",
  position_limit: "10",
  price_bands_width: "0.05",
  iv_bands_width: "0.05",
  max_open_orders: "100",
  max_funding_rate: "0.02",
  price_feed_id: "GVXRSBjFk6e6J3NbVPXohDJetcTjaeeuykUpbQF8UoMU",
  oracle_ewma_factor: "0.20000046249626113",
  max_order_size: "2",
  max_funding_rate_change: "0.02",
  max_tob_spread: "0.2",
  interest_rate: "0.0001",
  clamp_rate: "0.02",
  option_type: "CALL",
  strike_price: "96000",
  funding_period_hours: "24",
  tags: [],
};

export function paradexMarkets(): Row {
  const btc = { ...realMarket(), funding_period_hours: 8 };
  const eth: Row = {
    ...btc,
    symbol: "ETH-USD-PERP",
    base_currency: "ETH",
    order_size_increment: "0.01",
    price_tick_size: "0.01",
    position_limit: "600",
    max_funding_rate: "0.02",
    max_order_size: "1000",
  };
  return { results: [btc, eth, PERP_OPTION_MARKET] };
}

export function paradexSummary(): Row {
  const btc = realSummary();
  const eth: Row = {
    symbol: "ETH-USD-PERP",
    oracle_price: "3541.62",
    mark_price: "3541.62",
    last_traded_price: "3540.9",
    bid: "3540.7",
    ask: "3542.1",
    volume_24h: "1204391.55",
    total_volume: "310284119.20411",
    created_at: PARADEX_SUMMARY_CREATED_AT,
    underlying_price: "3538.77",
    open_interest: "812.44",
    funding_rate: "-0.0000812",
    price_change_rate_24h: "-0.011204",
  };
  const option: Row = { ...btc, symbol: "BTC-USD-96000-C", funding_rate: "", open_interest: "0.5" };
  return { results: [btc, eth, option] };
}

export function paradexRoutes(): ReplayRoute[] {
  return [
    { path: "/v1/markets", reply: { body: paradexMarkets() } },
    { path: "/v1/markets/summary", query: { market: "ALL" }, reply: { body: paradexSummary() } },
  ];
}
