/*
 * HTX USDT-margined swaps (https://api.hbdm.vn/…): the healthy answers of one refresh.
 *
 * No recording of these endpoints exists in an identifiable repository (a search of stored public
 * repositories found none), so the payloads are HTX's documented examples as ccxt's htx.js
 * (4.5.84) quotes them, and SYNTHETIC rows in their shape:
 * - `GET /linear-swap-api/v1/swap_contract_info?business_type=all`: the linear future row of ccxt's
 *   fetchMarketsByTypeAndSubType comment (BTC-USDT-211231), unchanged; the swaps are SYNTHETIC rows
 *   in that shape, with the empty `delivery_date`/`delivery_time` ccxt notes for swaps. HTX
 *   documents no interval field in this list.
 * - `GET /linear-swap-api/v1/swap_batch_funding_rate` (no contract: every swap): SYNTHETIC rows in
 *   the shape of ccxt's batch-funding comment, with `estimated_rate` and `next_funding_time` null, as
 *   HTX's documentation marks them (deprecated). BTC-USDT's `funding_rate` and `funding_time` are
 *   those of the documented current funding-rate answer below; the envelope's `ts` is SYNTHETIC.
 * - `GET /v5/market/funding_rate?contract_code=…`: BTC-USDT's row and the envelope (`code`,
 *   `message`, `ts`) are ccxt's linear fetchFundingRate comment, UNALTERED
 *   (lib/market/fixtures/htx/v5_market_funding_rate_BTC-USDT_ccxt-doc-example.json holds the whole
 *   documented answer); ETH-USDT and DOGE-USDT are SYNTHETIC rows in that shape; LSK-USDT has none,
 *   to show the fallback.
 * - `GET /linear-swap-api/v1/swap_open_interest?business_type=swap` (every swap): BTC-USDT is the
 *   row of ccxt's linear open-interest comment, unchanged; the other rows are SYNTHETIC.
 *
 * HTX is not in the offline sample.
 */
import type { ReplayRoute } from "../../replay-fetch";

type Row = Record<string, unknown>;

/** The batch funding payload's `ts`: 2026-06-12 04:35:18.758Z. */
export const HTX_FUNDING_TS = 1781238918758;
/** The 8h and 4h swaps' next settlement (ccxt's documented `funding_time`): 08:00Z. */
export const HTX_FUNDING_TIME = 1781251200000;
/** The hourly LSK-USDT's next settlement: 05:00Z. */
export const HTX_HOURLY_FUNDING_TIME = 1781240400000;

/** ccxt's documented linear-future row, unchanged. */
const FUTURE_CONTRACT: Row = {
  symbol: "BTC",
  contract_code: "BTC-USDT-211231",
  contract_size: 0.001,
  price_tick: 0.1,
  delivery_date: "20211231",
  delivery_time: "1640937600000",
  create_date: "20211228",
  contract_status: 1,
  settlement_date: "1640764800000",
  support_margin_mode: "cross",
  business_type: "futures",
  pair: "BTC-USDT",
  contract_type: "this_week",
  trade_partition: "USDT",
};

function swap(symbol: string, contractSize: number, priceTick: number, fields: Row): Row {
  return {
    symbol,
    contract_code: `${symbol}-USDT`,
    contract_size: contractSize,
    price_tick: priceTick,
    delivery_date: "",
    delivery_time: "",
    create_date: "20201021",
    contract_status: 1,
    settlement_date: String(HTX_FUNDING_TIME),
    support_margin_mode: "all",
    business_type: "swap",
    pair: `${symbol}-USDT`,
    contract_type: "swap",
    trade_partition: "USDT",
    ...fields,
  };
}

export function htxContractRows(): Row[] {
  return [
    swap("BTC", 0.001, 0.1, {}),
    swap("ETH", 0.01, 0.01, {}),
    swap("DOGE", 100, 0.000001, {}),
    swap("LSK", 1, 0.0001, { settlement_date: String(HTX_HOURLY_FUNDING_TIME) }),
    // contract_status 3: suspended.
    swap("OLD", 1, 0.0001, { contract_status: 3 }),
    FUTURE_CONTRACT,
  ];
}

export function htxFundingRows(): Row[] {
  const row = (symbol: string, fundingRate: string, fundingTime: number): Row => ({
    estimated_rate: null,
    funding_rate: fundingRate,
    contract_code: `${symbol}-USDT`,
    symbol,
    fee_asset: "USDT",
    funding_time: String(fundingTime),
    next_funding_time: null,
    trade_partition: "USDT",
  });
  return [
    row("BTC", "0.000083024939363172", HTX_FUNDING_TIME),
    row("ETH", "0.000100000000000000", HTX_FUNDING_TIME),
    row("DOGE", "-0.000215000000000000", HTX_FUNDING_TIME),
    row("LSK", "-0.000402000000000000", HTX_HOURLY_FUNDING_TIME),
    // Suspended contracts keep a funding row.
    row("OLD", "0.000100000000000000", HTX_FUNDING_TIME),
  ];
}

/** ccxt's documented linear fetchFundingRate answer (GET /v5/market/funding_rate), unaltered. */
export const HTX_DOCUMENTED_CURRENT_FUNDING = {
  code: 200,
  message: "Success",
  data: [
    {
      contract_code: "BTC-USDT",
      funding_rate: "0.000083024939363172",
      funding_time: "1781251200000",
      next_funding_time: "1781280000000",
      min_funding_rate: "-0.003750000000000000",
      max_funding_rate: "0.003750000000000000",
    },
  ],
  ts: 1781235318758,
};

/** The current funding-rate answer for every swap: the documented BTC-USDT row, SYNTHETIC others. */
export function htxCurrentFundingPayload(): Record<string, unknown> {
  const row = (symbol: string, fundingRate: string, fundingTime: number, nextFundingTime: number, bound: string): Row => ({
    contract_code: `${symbol}-USDT`,
    funding_rate: fundingRate,
    funding_time: String(fundingTime),
    next_funding_time: String(nextFundingTime),
    min_funding_rate: `-${bound}`,
    max_funding_rate: bound,
  });
  return {
    ...HTX_DOCUMENTED_CURRENT_FUNDING,
    data: [
      ...HTX_DOCUMENTED_CURRENT_FUNDING.data,
      row("ETH", "0.000100000000000000", HTX_FUNDING_TIME, HTX_FUNDING_TIME + 8 * 3_600_000, "0.003750000000000000"),
      row("DOGE", "-0.000215000000000000", HTX_FUNDING_TIME, HTX_FUNDING_TIME + 4 * 3_600_000, "0.020000000000000000"),
    ],
  };
}

export function htxOpenInterestRows(): Row[] {
  const row = (symbol: string, amount: string, volume: string, value: string, tradeAmount: string, tradeVolume: string, tradeTurnover: string): Row => ({
    amount,
    volume,
    value,
    contract_code: `${symbol}-USDT`,
    trade_amount: tradeAmount,
    trade_volume: tradeVolume,
    trade_turnover: tradeTurnover,
  });
  return [
    // ccxt's documented row.
    row("BTC", "32476.092", "32476092", "2063137924.9668", "11371.362", "11371362", "723600792.7222"),
    row("ETH", "402871.15", "40287115", "1032881920.514", "210744.3", "21074430", "540120380.02"),
    row("DOGE", "81500300", "815003", "14672040.1", "120440900", "1204409", "21688301.77"),
  ];
}

export function htxRoutes(): ReplayRoute[] {
  return [
    {
      path: "/linear-swap-api/v1/swap_contract_info",
      query: { business_type: "all" },
      reply: { body: { status: "ok", data: htxContractRows(), ts: HTX_FUNDING_TS - 1200 } },
    },
    {
      path: "/linear-swap-api/v1/swap_batch_funding_rate",
      reply: { body: { status: "ok", data: htxFundingRows(), ts: HTX_FUNDING_TS } },
    },
    {
      path: "/v5/market/funding_rate",
      reply: { body: htxCurrentFundingPayload() },
    },
    {
      path: "/linear-swap-api/v1/swap_open_interest",
      query: { business_type: "swap" },
      reply: { body: { status: "ok", data: htxOpenInterestRows(), ts: HTX_FUNDING_TS - 800 } },
    },
  ];
}
