import type { VenueHistoryReader } from "../history-types";
import { HOUR_MS } from "../../market/model/funding-interval";
import { backwardWindow, decimal, epochMs, rowsAt, withQuery } from "./read-fields";

const PAGE_SIZE = 1000;

/**
 * WEEX `GET /capi/v3/market/fundingRate`: a bare array of at most `limit` (100 by default, 1000 at
 * most, per ccxt's weex class) settlements within [`startTime`, `endTime`] (ms); `fundingRate` a
 * string, `fundingTime` ms. Which rows a longer window returns is not documented, so each request
 * asks a window of 1000 hours, which cannot hold more settlements than one answer (WEEX's shortest
 * interval is 1 h). No interval is stated.
 */
export const weexHistory: VenueHistoryReader = {
  exchange: "weex",
  limits: {
    pageSize: PAGE_SIZE,
    maxDepthDays: null,
    pagination: "backward-by-time",
    // No per-IP figure read: ccxt weighs this endpoint 25 of its 50 units a second.
    requestsPerSecond: 2,
    source: "https://www.weex.com/api-doc/contract/Market_API/GetFundingRateHistory (ccxt 4.5.84: cost 25 at a 20 ms rateLimit)",
  },
  async readPage(io, market, range, cursor) {
    const window = backwardWindow(range, cursor, PAGE_SIZE * HOUR_MS, "weex");
    const url = withQuery("https://api-contract.weex.com/capi/v3/market/fundingRate", {
      symbol: market.venueMarketId,
      startTime: window.start,
      endTime: window.end,
      limit: PAGE_SIZE,
    });
    const settlements = rowsAt("weex", await io.getJson(url)).map((row) => ({
      time: epochMs("weex", row.fundingTime, "fundingTime"),
      rate: decimal("weex", row.fundingRate, "fundingRate"),
      intervalHours: null,
    }));
    return { settlements, next: window.next };
  },
};
