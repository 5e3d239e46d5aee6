import type { VenueId } from "../../market/model/types";
import type { VenueHistoryReader } from "../history-types";
import { asterHistory } from "./aster";
import { backpackHistory } from "./backpack";
import { binanceHistory } from "./binance";
import { bitgetHistory } from "./bitget";
import { bybitHistory } from "./bybit";
import { coinexHistory } from "./coinex";
import { dydxHistory } from "./dydx";
import { extendedHistory } from "./extended";
import { gateHistory } from "./gate";
import { grvtHistory } from "./grvt";
import { htxHistory } from "./htx";
import { hyperliquidHistory } from "./hyperliquid";
import { kucoinfuturesHistory } from "./kucoinfutures";
import { mexcHistory } from "./mexc";
import { okxHistory } from "./okx";
import { paradexHistory } from "./paradex";

/** Every venue's funding-history reader, one file per venue beside this one. */
export const HISTORY_READERS: readonly VenueHistoryReader[] = [
  binanceHistory,
  bybitHistory,
  okxHistory,
  bitgetHistory,
  gateHistory,
  hyperliquidHistory,
  dydxHistory,
  extendedHistory,
  mexcHistory,
  kucoinfuturesHistory,
  htxHistory,
  coinexHistory,
  asterHistory,
  paradexHistory,
  backpackHistory,
  grvtHistory,
];

/**
 * The venues with no reader, and why: a venue joins HISTORY_READERS once its endpoint's answer is
 * pinned by a recording or a documented example, never from a guess at its shape.
 */
export const VENUES_WITHOUT_HISTORY: Readonly<Partial<Record<VenueId, string>>> = {
  lighter:
    "GET /api/v1/fundings (market_id, resolution, start_timestamp, end_timestamp, count_back): no answer with a known source. " +
    "ccxt has no fetchFundingRateHistory for lighter and its static tests record no /fundings answer; lighter-python's " +
    "generated docs show the schema only; the only bodies found (nautilus_trader http_fundings.json, SDK and bot test " +
    "mocks) state no capture, so the units those samples suggest (`rate` in percent per hour, the sign in `direction`) stay unpinned.",
  bingx: "GET /openApi/swap/v2/quote/fundingRate (per ccxt): no recorded or documented answer reached yet.",
  bitmart: "The installed ccxt has no bitmart class and no history endpoint answer was found.",
  bitmex:
    "GET /api/v1/funding (symbol, startTime, count, reverse): no answer with a known source reached yet; rows state " +
    "`fundingInterval` as a time on 2000-01-01 (as the live connector reads it) and settle at 04/12/20 UTC.",
  deribit: "Funding accrues continuously; get_funding_rate_history returns hourly interest_1h/interest_8h samples, not settlements (per ccxt).",
  phemex: "GET /api-data/public/data/funding-rate-history?symbol=.<id>FR8H (per ccxt): only a parsed row is documented, not the answer's envelope.",
  woo: "GET /v3/public/fundingRateHistory (page-numbered, per ccxt): no recorded or documented answer reached yet.",
};

/** The history reader of `exchange`, or undefined for a venue that serves no funding history. */
export function historyReader(exchange: string): VenueHistoryReader | undefined {
  return HISTORY_READERS.find((reader) => reader.exchange === exchange);
}
