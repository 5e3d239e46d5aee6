import type { VenueHistoryReader } from "../history-types";
import { cursorNumber, decimal, epochMs, rowsAt, withQuery } from "./read-fields";

const PAGE_SIZE = 1000;

/**
 * Binance USDⓈ-M `GET /fapi/v1/fundingRate`: ascending, at most 1000 rows from `startTime`, so the
 * next page starts 1 ms after the last `fundingTime` (which carries ms jitter: `…800002`).
 * `fundingRate` is a string; the answer states no interval.
 */
export const binanceHistory: VenueHistoryReader = {
  exchange: "binance",
  limits: {
    pageSize: PAGE_SIZE,
    maxDepthDays: null,
    pagination: "forward-by-time",
    // 500 requests per 5 minutes per IP, shared with /fapi/v1/fundingInfo.
    requestsPerSecond: 500 / 300,
    source: "https://developers.binance.com/docs/derivatives/usds-margined-futures/market-data/rest-api/Get-Funding-Rate-History",
  },
  async readPage(io, market, range, cursor) {
    const start = cursor === null ? range.since : cursorNumber("binance", cursor);
    const url = withQuery("https://fapi.binance.com/fapi/v1/fundingRate", {
      symbol: market.venueMarketId,
      startTime: start,
      endTime: range.until,
      limit: PAGE_SIZE,
    });
    const rows = rowsAt("binance", await io.getJson(url));
    const settlements = rows.map((row) => ({
      time: epochMs("binance", row.fundingTime, "fundingTime"),
      rate: decimal("binance", row.fundingRate, "fundingRate"),
      intervalHours: null,
    }));
    const last = Math.max(...settlements.map((settlement) => settlement.time));
    return { settlements, next: rows.length < PAGE_SIZE || last >= range.until ? null : String(last + 1) };
  },
};
