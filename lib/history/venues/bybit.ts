import type { VenueHistoryReader } from "../history-types";
import { at, cursorNumber, decimal, epochMs, rowsAt, unexpectedAnswer, withQuery } from "./read-fields";

const PAGE_SIZE = 200;

/**
 * Bybit v5 `GET /v5/market/funding/history?category=linear`: newest first, at most 200 rows up to
 * `endTime`. Only `endTime` is sent: with `startTime` too Bybit answers a window that depends on
 * `limit`. The next page ends 1 ms before the oldest `fundingRateTimestamp` (a string of ms).
 */
export const bybitHistory: VenueHistoryReader = {
  exchange: "bybit",
  limits: {
    pageSize: PAGE_SIZE,
    maxDepthDays: null,
    pagination: "backward-by-time",
    // 600 requests per 5 s per IP for every public endpoint.
    requestsPerSecond: 120,
    source: "https://bybit-exchange.github.io/docs/v5/market/history-fund-rate; https://bybit-exchange.github.io/docs/v5/rate-limit",
  },
  async readPage(io, market, range, cursor) {
    const end = cursor === null ? range.until : cursorNumber("bybit", cursor);
    const url = withQuery("https://api.bybit.com/v5/market/funding/history", {
      category: "linear",
      symbol: market.venueMarketId,
      endTime: end,
      limit: PAGE_SIZE,
    });
    const answer = await io.getJson(url);
    if (at("bybit", answer, ["retCode"]) !== 0) throw unexpectedAnswer("bybit", `retCode ${String(at("bybit", answer, ["retCode"]))}`);
    const rows = rowsAt("bybit", answer, ["result", "list"]);
    const settlements = rows.map((row) => ({
      time: epochMs("bybit", row.fundingRateTimestamp, "fundingRateTimestamp"),
      rate: decimal("bybit", row.fundingRate, "fundingRate"),
      intervalHours: null,
    }));
    const oldest = Math.min(...settlements.map((settlement) => settlement.time));
    return { settlements, next: rows.length < PAGE_SIZE || oldest <= range.since ? null : String(oldest - 1) };
  },
};
