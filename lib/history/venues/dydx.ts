import type { VenueHistoryReader } from "../history-types";
import { cursorNumber, decimal, isoMs, rowsAt, withQuery } from "./read-fields";

const PAGE_SIZE = 100;

/**
 * dYdX v4 indexer `GET /v4/historicalFunding/{market}`: newest first, `limit` rows at or before
 * `effectiveBeforeOrAt`. `effectiveAt` is ISO-8601 text with ms, `rate` a string per hour (v4
 * settles hourly).
 */
export const dydxHistory: VenueHistoryReader = {
  exchange: "dydx",
  limits: {
    pageSize: PAGE_SIZE,
    maxDepthDays: null,
    pagination: "backward-by-time",
    // The indexer publishes no per-endpoint figure; one request a second stays well inside it.
    requestsPerSecond: 1,
    source: "https://docs.dydx.xyz/indexer-client/http#get-historical-funding",
  },
  async readPage(io, market, range, cursor) {
    const end = cursor === null ? range.until : cursorNumber("dydx", cursor);
    const url = withQuery(`https://indexer.dydx.trade/v4/historicalFunding/${encodeURIComponent(market.venueMarketId)}`, {
      effectiveBeforeOrAt: new Date(end).toISOString(),
      limit: PAGE_SIZE,
    });
    const rows = rowsAt("dydx", await io.getJson(url), ["historicalFunding"]);
    const settlements = rows.map((row) => ({
      time: isoMs("dydx", row.effectiveAt, "effectiveAt"),
      rate: decimal("dydx", row.rate, "rate"),
      intervalHours: 1,
    }));
    const oldest = Math.min(...settlements.map((settlement) => settlement.time));
    return { settlements, next: rows.length < PAGE_SIZE || oldest <= range.since ? null : String(oldest - 1) };
  },
};
