/*
 * Deribit's healthy answers (www.deribit.com/api/v2, JSON-RPC envelopes over GET). Sources:
 * lib/market/fixtures/deribit/SOURCES.md.
 *
 * - REAL, but not replayed: the BTC-PERPETUAL WebSocket ticker of 2025-12-12 12:11Z
 *   (nautechsystems/nautilus_trader crates/adapters/deribit/test_data/ws_ticker.json @
 *   48fbc60a91db6b2b295d1d437bee1772cd68988e). Its data fields are REST `public/ticker`'s, and
 *   `get_book_summary_by_currency` rows use the same names (`funding_8h`, `current_funding`,
 *   `mark_price`, `open_interest`); BTC-PERPETUAL is inverse (coin-settled), so the connector
 *   never asks for its book. A Deribit check of tests/venues/venue-quirks.ts parses the frame's data directly.
 * - SYNTHETIC: everything replayed. `get_instruments?kind=future` lists BTC-PERPETUAL (inverse,
 *   excluded; fields as ccxt's deribit.js documents it), BTC-26DEC25 (an inverse dated future,
 *   excluded), BTC_USDC-PERPETUAL and ETH_USDC-PERPETUAL (fields of a `get_instrument` answer for
 *   BTC_USDC-PERPETUAL quoted in a code comment found by the search tools, repository unknown) and
 *   ETH_USDT-PERPETUAL. The book summaries are at the REAL ticker's moment, BTC's mark near its
 *   inverse twin's; the linear rates, prices, open interest and volumes are made up.
 */
import type { ReplayRoute } from "../../replay-fetch";

type Row = Record<string, unknown>;

/** The REAL BTC-PERPETUAL ticker's `timestamp`: 2025-12-12 12:11:14.086Z. */
export const DERIBIT_TIME = 1765541474086;
const PERPETUAL_EXPIRY = 32503708800000;

function rpc(result: unknown): Row {
  return { jsonrpc: "2.0", result, usIn: DERIBIT_TIME * 1000, usOut: DERIBIT_TIME * 1000 + 150, usDiff: 150, testnet: false };
}

function linearPerpetual(base: string, settle: "USDC" | "USDT", overrides: Row = {}): Row {
  return {
    price_index: `${base.toLowerCase()}_${settle.toLowerCase()}`,
    rfq: false,
    kind: "future",
    instrument_name: `${base}_${settle}-PERPETUAL`,
    maker_commission: 0,
    taker_commission: 0.0005,
    instrument_type: "linear",
    expiration_timestamp: PERPETUAL_EXPIRY,
    creation_timestamp: 1646824342000,
    is_active: true,
    contract_size: 0.001,
    tick_size: 1,
    settlement_period: "perpetual",
    min_trade_amount: 0.001,
    future_type: "linear",
    max_leverage: 50,
    max_liquidation_commission: 0.0075,
    block_trade_commission: 0.0001,
    block_trade_min_trade_amount: 200000,
    block_trade_tick_size: 1,
    settlement_currency: settle,
    base_currency: base,
    counter_currency: settle,
    quote_currency: settle,
    tick_size_steps: [],
    ...overrides,
  };
}

function inverseFuture(instrumentName: string, settlementPeriod: string, expiry: number): Row {
  return {
    tick_size: 0.5,
    taker_commission: 0.0005,
    settlement_period: settlementPeriod,
    settlement_currency: "BTC",
    quote_currency: "USD",
    min_trade_amount: 10.0,
    max_liquidation_commission: 0.0075,
    max_leverage: 50,
    maker_commission: 0.0,
    kind: "future",
    is_active: true,
    instrument_name: instrumentName,
    future_type: "reversed",
    expiration_timestamp: expiry,
    creation_timestamp: 1534242287000,
    counter_currency: "USD",
    contract_size: 10.0,
    block_trade_commission: 0.0001,
    base_currency: "BTC",
  };
}

function bookSummary(instrument: string, base: string, quote: string, fields: Row): Row {
  return {
    instrument_name: instrument,
    base_currency: base,
    quote_currency: quote,
    creation_timestamp: DERIBIT_TIME,
    price_change: 0.0,
    estimated_delivery_price: fields.mark_price,
    ...fields,
  };
}

export function deribitRoutes(): ReplayRoute[] {
  const instruments = [
    inverseFuture("BTC-PERPETUAL", "perpetual", PERPETUAL_EXPIRY),
    inverseFuture("BTC-26DEC25", "month", Date.UTC(2025, 11, 26, 8)),
    linearPerpetual("BTC", "USDC"),
    linearPerpetual("ETH", "USDC", { creation_timestamp: 1646824397000, tick_size: 0.1, contract_size: 0.01, min_trade_amount: 0.01 }),
    linearPerpetual("ETH", "USDT", { creation_timestamp: 1713353271000, tick_size: 0.1, contract_size: 0.01, min_trade_amount: 0.01 }),
  ];
  const usdc = [
    bookSummary("BTC_USDC-PERPETUAL", "BTC", "USDC", {
      mark_price: 92290.47,
      last: 92291.0,
      bid_price: 92289.0,
      ask_price: 92293.0,
      mid_price: 92291.0,
      high: 93610.0,
      low: 89280.0,
      open_interest: 312.458,
      volume: 1450.231,
      volume_usd: 133840000.0,
      volume_notional: 133840000.0,
      current_funding: 0.0,
      funding_8h: 0.0000183,
    }),
    bookSummary("ETH_USDC-PERPETUAL", "ETH", "USDC", {
      mark_price: 3241.18,
      last: 3241.2,
      bid_price: 3241.0,
      ask_price: 3241.4,
      mid_price: 3241.2,
      high: 3302.5,
      low: 3188.1,
      open_interest: 4210.55,
      volume: 20110.4,
      volume_usd: 65180000.0,
      volume_notional: 65180000.0,
      current_funding: -0.0000095,
      funding_8h: -0.0000412,
    }),
  ];
  const usdt = [
    bookSummary("ETH_USDT-PERPETUAL", "ETH", "USDT", {
      mark_price: 3241.02,
      last: 3241.1,
      bid_price: 3240.9,
      ask_price: 3241.3,
      mid_price: 3241.1,
      high: 3301.9,
      low: 3187.7,
      open_interest: 812.3,
      volume: 3100.2,
      volume_usd: 10040000.0,
      volume_notional: 10040000.0,
      current_funding: 0.0,
      funding_8h: 0.0000051,
    }),
  ];
  const summaryPath = "/api/v2/public/get_book_summary_by_currency";
  return [
    { path: "/api/v2/public/get_instruments", query: { kind: "future" }, reply: { body: rpc(instruments) } },
    { path: summaryPath, query: { currency: "USDC", kind: "future" }, reply: { body: rpc(usdc) } },
    { path: summaryPath, query: { currency: "USDT", kind: "future" }, reply: { body: rpc(usdt) } },
  ];
}
