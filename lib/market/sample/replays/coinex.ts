/*
 * CoinEx v2 futures (`https://api.coinex.com/v2`): the healthy answers a refresh gets.
 *
 * Nothing here is a recording: no identifiable capture of CoinEx's futures market list, funding
 * rates or tickers exists (lib/market/fixtures/coinex/SOURCES.md says what was searched).
 *
 * - DOCUMENTED EXAMPLE, unaltered (fixtures/coinex/*_ccxt-doc-example.json): the venue-doc
 *   examples ccxt 4.5.84 quotes in js/src/coinex.js — the inverse BTCUSD row of
 *   /futures/market, the BTCUSDT row of /futures/funding-rate (2024-05-15: settlement at 00:00Z,
 *   the next at 08:00Z) and the BTCUSDT row of /futures/ticker.
 * - SYNTHETIC, in that documented shape with made-up numbers: the linear market rows (BTCUSDT,
 *   ETHUSDT, DOGEUSDT, the closed OLDUSDT; fields as in the docs' /futures/market example), the
 *   ETHUSDT (negative), DOGEUSDT (4h: next settlement 04:00Z) and OLDUSDT funding rows, the
 *   inverse BTCUSD funding row and the ETHUSDT ticker.
 *
 * The doc examples are of different moments (the ticker's BTC mark is 62443.05, the funding row's
 * 61602.22), so this is a shape, not a market moment; CoinEx is not in the offline sample.
 * The synthetic rows were written for 2024-05-14 21:30Z (COINEX_NOW), before the documented
 * 00:00Z settlement.
 */
import type { ReplayRoute } from "../../replay-fetch";
import { fixtureJson } from "../read-fixture";

type Row = Record<string, unknown>;
interface Envelope {
  code: number;
  data: Row[];
  message: string;
}

/** 2024-05-14 21:30Z: a moment before the doc example's 00:00Z settlement, for tests' clocks. */
export const COINEX_NOW = 1715722200000;

/** The documented /futures/funding-rate BTCUSDT row's `latest_funding_time` (2024-05-15 00:00Z). */
const SETTLES_AT = 1715731200000;

/** A linear market row in the field set of CoinEx's /futures/market doc example (SYNTHETIC values). */
function linearMarket(market: string, base: string, overrides: Row): Row {
  return {
    market,
    contract_type: "linear",
    taker_fee_rate: "0.0005",
    maker_fee_rate: "0.0003",
    min_amount: "0.0001",
    base_ccy: base,
    quote_ccy: "USDT",
    base_ccy_precision: 8,
    quote_ccy_precision: 2,
    tick_size: "0.01",
    is_market_available: true,
    is_copy_trading_available: true,
    is_api_trading_available: true,
    leverage: ["1", "2", "3", "5", "8", "10", "15", "20", "30", "50", "100"],
    open_interest_volume: "0",
    ...overrides,
  };
}

/** A /futures/funding-rate row (SYNTHETIC values, documented fields). */
function fundingRow(market: string, overrides: Row): Row {
  return {
    latest_funding_rate: "0.0001",
    latest_funding_time: SETTLES_AT,
    mark_price: "1",
    market,
    max_funding_rate: "0.00375",
    min_funding_rate: "-0.00375",
    next_funding_rate: "0.0001",
    next_funding_time: SETTLES_AT + 8 * 3_600_000,
    ...overrides,
  };
}

export function coinexRoutes(): ReplayRoute[] {
  const markets = fixtureJson<Envelope>("coinex/futures-market_ccxt-doc-example.json");
  const rates = fixtureJson<Envelope>("coinex/funding-rate_ccxt-doc-example.json");
  const tickers = fixtureJson<Envelope>("coinex/futures-ticker_ccxt-doc-example.json");
  const [btcTicker] = tickers.data;
  return [
    {
      path: "/v2/futures/market",
      reply: {
        body: {
          ...markets,
          data: [
            ...markets.data,
            linearMarket("BTCUSDT", "BTC", { tick_size: "0.1", open_interest_volume: "1250.5" }),
            linearMarket("ETHUSDT", "ETH", { open_interest_volume: "21000.25" }),
            linearMarket("DOGEUSDT", "DOGE", { quote_ccy_precision: 6, tick_size: "0.000001", open_interest_volume: "35000000" }),
            linearMarket("OLDUSDT", "OLD", { is_market_available: false, open_interest_volume: "10" }),
          ],
        },
      },
    },
    {
      path: "/v2/futures/funding-rate",
      reply: {
        body: {
          ...rates,
          data: [
            ...rates.data,
            fundingRow("ETHUSDT", {
              latest_funding_rate: "-0.00005112",
              mark_price: "2918.41",
              next_funding_rate: "-0.00003",
            }),
            // 4h: the settlement after 00:00Z is 04:00Z.
            fundingRow("DOGEUSDT", {
              latest_funding_rate: "0.00031",
              mark_price: "0.152113",
              next_funding_rate: "0.00025",
              next_funding_time: SETTLES_AT + 4 * 3_600_000,
            }),
            fundingRow("OLDUSDT", { mark_price: "0.5" }),
            // The inverse contract has funding too; it is not a USDT-margined perpetual.
            fundingRow("BTCUSD", { latest_funding_rate: "0.00008", mark_price: "61598.1" }),
          ],
        },
      },
    },
    {
      path: "/v2/futures/ticker",
      reply: {
        body: {
          ...tickers,
          data: [
            ...tickers.data,
            {
              ...btcTicker,
              close: "2919.02",
              high: "2990",
              index_price: "2918.77",
              last: "2919.02",
              low: "2870.11",
              mark_price: "2918.41",
              market: "ETHUSDT",
              open: "2950.4",
              value: "95012345.5",
              volume: "32411.9",
              volume_buy: "12.8",
              volume_sell: "9.1",
            },
          ],
        },
      },
    },
  ];
}
