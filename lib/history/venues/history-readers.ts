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
import { deriveHistory } from "./derive";
import { dydxHistory } from "./dydx";
import { extendedHistory } from "./extended";
import { gateHistory } from "./gate";
import { grvtHistory } from "./grvt";
import { hibachiHistory } from "./hibachi";
import { htxHistory } from "./htx";
import { hyperliquidHistory } from "./hyperliquid";
import { HIP3_HISTORY_READERS } from "./hyperliquid-hip3";
import { krakenfuturesHistory } from "./krakenfutures";
import { kucoinfuturesHistory } from "./kucoinfutures";
import { lighterHistory } from "./lighter";
import { mexcHistory } from "./mexc";
import { okxHistory } from "./okx";
import { pacificaHistory } from "./pacifica";
import { phemexHistory } from "./phemex";
import { wooHistory } from "./woo";
import { paradexHistory } from "./paradex";
import { orderlyHistory } from "./orderly";
import { btseHistory } from "./btse";
import { weexHistory } from "./weex";
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
  orderlyHistory,
  btseHistory,
  weexHistory,
  deriveHistory,
  krakenfuturesHistory,
  pacificaHistory,
  hibachiHistory,
  cryptocomHistory,
  ...HIP3_HISTORY_READERS,
];

/**
 * The venues with no reader, and why: a venue joins HISTORY_READERS once its endpoint's answer is
 * pinned by a recording, a documented example or (Lighter) sources measured against the venue that
 * agree, never from a guess at its shape, and once the endpoint answers the backfill's plain requests.
 */
export const VENUES_WITHOUT_HISTORY: Readonly<Partial<Record<VenueId, string>>> = {
  drift:
    "GET data.api.drift.trade/market/<symbol>/fundingRates (decimal quote per base over oraclePriceTwap, hourly, about 31 days) refuses requests " +
    "without a browser's Referer/Origin (403), which the backfill does not impersonate; its records stop at 2026-04-01 by several clients' " +
    "accounts, and no whole answer is recorded (one shortened paste)",
  edgex: "GET /api/v2/public/funding/getFundingRatePage (settlement rows with filterSettlementFundingRate) has only V1 documented examples here, not yet read",
  ethereal: "GET /v1/funding (hourly charges by product and range) has only the spec's example row, no recording",
  variational: "Variational publishes no funding history: its read-only API has one endpoint, /metadata/stats",
  bitfinex:
    "GET /v2/status/deriv/{key}/hist lists status snapshots (CURRENT_FUNDING as it stood at each MTS), not settlements; " +
    "reading settlements out of them needs the snapshot at each 8-hour event, and no recording of the endpoint exists",
  hitbtc: "GET /public/futures/history/funding is documented (ccxt's example row, 2021) but no recording of it was found",
  toobit: "GET /api/v1/futures/historyFundingRate is documented (settleTime, settleRate, period) but no recording of it was found",
  apex:
    "GET /api/v3/history-funding?symbol=BTC-USDT is documented (historyFunds: rate, fundingTime, fundingTimestamp; the docs' example times are " +
    "placeholders) but no recording of it was found",
  whitebit: "GET /api/v4/public/funding-history/{market} is documented (docs.whitebit.com market-data/funding-history) but no recording or example body was read",
};

/** The history reader of `exchange`, or undefined for a venue that serves no funding history. */
export function historyReader(exchange: string): VenueHistoryReader | undefined {
  return HISTORY_READERS.find((reader) => reader.exchange === exchange);
}
