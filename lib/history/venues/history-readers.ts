import type { VenueId } from "../../market/model/types";
import type { VenueHistoryReader } from "../history-types";
import { asterHistory } from "./aster";
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
import { htxHistory } from "./htx";
import { hyperliquidHistory } from "./hyperliquid";
import { kucoinfuturesHistory } from "./kucoinfutures";
import { mexcHistory } from "./mexc";
import { okxHistory } from "./okx";
import { phemexHistory } from "./phemex";
import { wooHistory } from "./woo";

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
];

/**
 * The venues with no reader, and why: a venue joins HISTORY_READERS once its endpoint's answer is
 * pinned by a recording or a documented example, never from a guess at its shape.
 */
export const VENUES_WITHOUT_HISTORY: Readonly<Partial<Record<VenueId, string>>> = {
  paradex:
    "GET /v1/funding/data returns observations every few seconds of a rate quoted per funding period (`funding_rate`, with " +
    "`funding_rate_8h` and the row's own `funding_period_hours`), not settlements: summing them overstates funding up to 28,800 " +
    "times. A settlement is the change of `funding_index` over the period (in USD, so it needs the period's price to become a " +
    "rate) or the time-weighted mean of the period's `funding_rate`. No recording exists and the documentation shows no example " +
    "answer, so neither is pinned yet.",
  lighter: "GET /api/v1/fundings (market_id, resolution, count_back): the only sample found is unverified (nautilus), and ccxt has no fetchFundingRateHistory for lighter.",
  backpack:
    "GET /api/v1/fundingRates (limit/offset, newest first): no answer with a known source reached yet. Two traps for its reader: " +
    "`intervalEndTimestamp` is ISO text without a zone (UTC), and the list was seen to include the interval still running.",
  grvt: "POST full/v1/funding (times in ns, per ccxt): no recorded or documented answer reached yet.",
};

/** The history reader of `exchange`, or undefined for a venue that serves no funding history. */
export function historyReader(exchange: string): VenueHistoryReader | undefined {
  return HISTORY_READERS.find((reader) => reader.exchange === exchange);
}
