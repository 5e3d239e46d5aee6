import type { VenueId } from "../../market/model/types";
import type { VenueHistoryReader } from "../history-types";
import { asterHistory } from "./aster";
import { backpackHistory } from "./backpack";
import { binanceHistory } from "./binance";
import { bingxHistory } from "./bingx";
import { bitgetHistory } from "./bitget";
import { bitmartHistory } from "./bitmart";
import { bitmexHistory } from "./bitmex";
import { bybitHistory } from "./bybit";
import { coinexHistory } from "./coinex";
import { deribitHistory } from "./deribit";
import { dydxHistory } from "./dydx";
import { extendedHistory } from "./extended";
import { gateHistory } from "./gate";
import { grvtHistory } from "./grvt";
import { htxHistory } from "./htx";
import { hyperliquidHistory } from "./hyperliquid";
import { HIP3_HISTORY_READERS } from "./hyperliquid-hip3";
import { kucoinfuturesHistory } from "./kucoinfutures";
import { lighterHistory } from "./lighter";
import { mexcHistory } from "./mexc";
import { okxHistory } from "./okx";
import { phemexHistory } from "./phemex";
import { wooHistory } from "./woo";
import { paradexHistory } from "./paradex";
import { cryptocomHistory } from "./cryptocom";

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
  bitmexHistory,
  wooHistory,
  phemexHistory,
  bingxHistory,
  deribitHistory,
  bitmartHistory,
  paradexHistory,
  backpackHistory,
  grvtHistory,
  lighterHistory,
  cryptocomHistory,
  ...HIP3_HISTORY_READERS,
];

/**
 * The venues with no reader, and why: a venue joins HISTORY_READERS once its endpoint's answer is
 * pinned by a recording, a documented example or (Lighter) sources measured against the venue that
 * agree, never from a guess at its shape.
 */
export const VENUES_WITHOUT_HISTORY: Readonly<Partial<Record<VenueId, string>>> = {
  krakenfutures: "GET /derivatives/api/v4/historicalfundingrates is documented (ccxt's example) but not yet read here",
  derive: "POST /public/get_funding_rate_history is recorded (tests/fixtures/venues/derive) but not yet read here",
  drift: "no recording of the data API's funding history, whose path is uncertain (fundingRates vs market/<name>/fundingRates)",
  pacifica: "no recording of GET /api/v1/funding_rate/history",
  bitfinex:
    "GET /v2/status/deriv/{key}/hist lists status snapshots (CURRENT_FUNDING as it stood at each MTS), not settlements; " +
    "reading settlements out of them needs the snapshot at each 8-hour event, and no recording of the endpoint exists",
  hitbtc: "GET /public/futures/history/funding is documented (ccxt's example row, 2021) but no recording of it was found",
  toobit: "GET /api/v1/futures/historyFundingRate is documented (settleTime, settleRate, period) but no recording of it was found",
  whitebit: "GET /api/v4/public/funding-history/{market} is documented (docs.whitebit.com market-data/funding-history) but no recording or example body was read",
};

/** The history reader of `exchange`, or undefined for a venue that serves no funding history. */
export function historyReader(exchange: string): VenueHistoryReader | undefined {
  return HISTORY_READERS.find((reader) => reader.exchange === exchange);
}
