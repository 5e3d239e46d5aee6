/*
 * Lighter replay. What is real and what is not:
 *
 * - REAL `GET /api/v1/orderBookDetails` ETH row (mainnet, 2026-05-05; nautilus_trader
 *   `crates/adapters/lighter/test_data/http_order_book_details.json` @
 *   ff0a315d6012da78739be3ebafe720ee460360cd).
 * - REAL `GET /api/v1/funding-rates` rows: Lighter's ETH row (ccxt `ts/src/test/static/response/lighter.json`
 *   @ 041bd89a6afdc2ba5fffbef4ec0d9105abc71232, a session of 2025-11-13) and the first five rows of
 *   a late-2025 answer (e-time/taolifunding `docs/how-to-get-data-from-api.md` @
 *   4961d59d59757394a16f699a1e2a94302ec0131f): Binance's and Bybit's rates that Lighter mixes in, and
 *   Lighter's TON (market 12, not in the market list here, so counted as unlisted).
 * - SYNTHETIC: a BTC market (id 1) in orderBookDetails, cloned from the real ETH row with made-up
 *   numbers, and its `funding-rates` row (made up, in the venue's 8h-scaled unit), because no
 *   identifiable recording of Lighter's BTC exists and cross-venue pairs need BTC.
 *
 * The recordings are of different days (rates 2025-11, market statistics 2026-05) and Lighter's
 * answers carry neither a time nor a mark price, so the sample shows Lighter's rates at the funding
 * recording's moment and no price spread for its legs. lib/market/fixtures/lighter/SOURCES.md has
 * each file's provenance.
 */
import type { ReplayRoute } from "../../replay-fetch";
import { fixtureJson } from "../read-fixture";

type Row = Record<string, unknown>;

/**
 * When the funding recording is of: its ccxt recording session's `fetchStatus` time,
 * 2025-11-13T03:46:41Z (the funding rows carry no time of their own).
 */
export const LIGHTER_RECORDED_AT = Date.UTC(2025, 10, 13, 3, 46, 41);

/** REAL 2026-05-05 orderBookDetails + the SYNTHETIC BTC market. */
export function lighterOrderBookDetails(): Row {
  const real = fixtureJson<{ order_book_details: Row[] } & Row>("lighter/orderBookDetails_ETH_2026-05-05.json");
  const eth = real.order_book_details[0];
  if (!eth) throw new Error("orderBookDetails fixture has no market");
  const btc: Row = {
    ...eth,
    symbol: "BTC",
    market_id: 1,
    base_asset_id: 1,
    min_base_amount: "0.00020",
    supported_size_decimals: 5,
    supported_price_decimals: 1,
    size_decimals: 5,
    price_decimals: 1,
    // Made-up statistics.
    last_trade_price: 94210.5,
    daily_trades_count: 512034,
    daily_base_token_volume: 10432.11873,
    daily_quote_token_volume: 981240512.118207,
    daily_price_low: 92880.1,
    daily_price_high: 95012.4,
    daily_price_change: 0.8120417763,
    open_interest: 1873.40961,
  };
  return { ...real, order_book_details: [...real.order_book_details, btc] };
}

/** REAL funding-rates rows of two answers + the SYNTHETIC BTC row. */
export function lighterFundingRates(): Row {
  const ccxt = fixtureJson<{ funding_rates: Row[] } & Row>("lighter/funding-rates_ETH_ccxt-static.json");
  const excerpt = fixtureJson<{ funding_rates: Row[] }>("lighter/funding-rates_2025-10_excerpt.json");
  const btc: Row = { market_id: 1, exchange: "lighter", symbol: "BTC", rate: 0.000064 };
  return { ...ccxt, funding_rates: [...ccxt.funding_rates, ...excerpt.funding_rates, btc] };
}

export function lighterRoutes(): ReplayRoute[] {
  return [
    { path: "/api/v1/orderBookDetails", reply: { body: lighterOrderBookDetails() } },
    { path: "/api/v1/funding-rates", reply: { body: lighterFundingRates() } },
  ];
}
