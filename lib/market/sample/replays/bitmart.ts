/*
 * BitMart futures' healthy answer to `GET /contract/public/details`, the one request a refresh makes.
 *
 * No recording of it exists (ccxt's stored bitmart responses hold no contract list; see
 * lib/market/fixtures/bitmart/SOURCES.md), so everything here is a DOCUMENTED EXAMPLE:
 * - BTCUSDT is BitMart's own documented example, unaltered
 *   (`fixtures/bitmart/contract_details_BTCUSDT_DOC.json`, from bitmartexchange/bitmart-skills
 *   `skills/bitmart-exchange-futures/references/api-reference.md` @
 *   38a4ed8618f7c6631b87ef82d38c2ff0c64812ca, which notes the live payload carries `funding_time`).
 * - ETHUSDT (a 4-hour interval and a negative rate), a delisted contract and a dated future are
 *   built here in that row's shape, with made-up numbers.
 *
 * Not in the offline sample: it holds recordings only.
 */
import type { ReplayRoute } from "../../replay-fetch";
import { fixtureJson } from "../read-fixture";

type Row = Record<string, unknown>;

interface Details {
  code: number;
  message: string;
  data: { symbols: Row[] };
}

/** DOCUMENTED EXAMPLE rows: BitMart's BTCUSDT example, then rows built in its shape. */
export function bitmartContractRows(): Row[] {
  const documented = fixtureJson<Details>("bitmart/contract_details_BTCUSDT_DOC.json").data.symbols;
  const btc = documented[0];
  if (!btc) throw new Error("the documented example has no contract");
  const eth: Row = {
    ...btc,
    symbol: "ETHUSDT",
    base_currency: "ETH",
    last_price: "1972.35",
    volume_24h: "41250870",
    turnover_24h: "813605114.5",
    index_price: "1971.88",
    index_name: "ETHUSDT",
    contract_size: "0.01",
    price_precision: "0.01",
    funding_rate: "-0.000035",
    expected_funding_rate: "-0.00002",
    open_interest: "2230115",
    open_interest_value: "43985234.7",
    funding_interval_hours: 4,
    // 2026-03-10T16:00Z, a 4-hourly settlement as BTC's 8-hourly one.
    funding_time: 1773158400000,
  };
  const delisted: Row = {
    ...btc,
    symbol: "OLDUSDT",
    base_currency: "OLD",
    index_name: "OLDUSDT",
    last_price: "0.0123",
    index_price: "0.0122",
    status: "Delisted",
    delist_time: 1773100800,
  };
  const future: Row = {
    ...btc,
    symbol: "BTCUSDT260327",
    product_type: 2,
    expire_timestamp: 1774598400000,
    settle_timestamp: 1774598400000,
    funding_rate: "0",
    expected_funding_rate: "0",
  };
  return [btc, eth, delisted, future];
}

export function bitmartRoutes(): ReplayRoute[] {
  return [
    {
      path: "/contract/public/details",
      reply: { body: { code: 1000, message: "OK", trace: "documented-example", data: { symbols: bitmartContractRows() } } },
    },
  ];
}
