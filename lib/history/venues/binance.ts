import type { VenueHistoryLimits, VenueHistoryReader } from "../history-types";
import { cursorNumber, decimal, epochMs, rowsAt, withQuery } from "./read-fields";

const PAGE_SIZE = 1000;

/**
 * A Binance-shaped `fundingRate` endpoint (Binance, and Aster which copies it): ascending, at most
 * 1000 rows from `startTime`, so the next page starts 1 ms after the last `fundingTime` (which
 * carries ms jitter: `…800002`). `fundingRate` is a string; the answer states no interval.
 */
export function binanceShapedHistory(
  exchange: string,
  url: string,
  limits: Pick<VenueHistoryLimits, "requestsPerSecond" | "source">,
): VenueHistoryReader {
  return {
    exchange,
    limits: { pageSize: PAGE_SIZE, maxDepthDays: null, pagination: "forward-by-time", ...limits },
    async readPage(io, market, range, cursor) {
      const start = cursor === null ? range.since : cursorNumber(exchange, cursor);
      const answer = await io.getJson(withQuery(url, { symbol: market.venueMarketId, startTime: start, endTime: range.until, limit: PAGE_SIZE }));
      const rows = rowsAt(exchange, answer);
      const settlements = rows.map((row) => ({
        time: epochMs(exchange, row.fundingTime, "fundingTime"),
        rate: decimal(exchange, row.fundingRate, "fundingRate"),
        intervalHours: null,
      }));
      const last = Math.max(...settlements.map((settlement) => settlement.time));
      return { settlements, next: rows.length < PAGE_SIZE || last >= range.until ? null : String(last + 1) };
    },
  };
}

/** Binance USDⓈ-M `GET /fapi/v1/fundingRate`. */
export const binanceHistory = binanceShapedHistory("binance", "https://fapi.binance.com/fapi/v1/fundingRate", {
  // 500 requests per 5 minutes per IP, shared with /fapi/v1/fundingInfo.
  requestsPerSecond: 500 / 300,
  source: "https://developers.binance.com/docs/derivatives/usds-margined-futures/market-data/rest-api/Get-Funding-Rate-History",
});
