import type { VenueHistoryReader } from "../history-types";
import { bitmexIntervalHours } from "../../market/venues/connectors/bitmex";
import { cursorNumber, decimal, isoMs, rowsAt, withQuery } from "./read-fields";

const PAGE_SIZE = 500;

/**
 * BitMEX `GET /api/v1/funding`: a bare array, oldest first (`reverse=false`), at most `count` rows
 * from `startTime`; times are ISO text both ways, so the next page starts 1 ms after the last
 * `timestamp`. `fundingInterval` states the interval as a time on 2000-01-01 (BitMEX's early
 * markets settled daily: "2000-01-02T00:00:00.000Z" is 24 h). `fundingRateDaily` is the rate
 * scaled to a day, not what the settlement paid.
 */
export const bitmexHistory: VenueHistoryReader = {
  exchange: "bitmex",
  limits: {
    pageSize: PAGE_SIZE,
    maxDepthDays: null,
    pagination: "forward-by-time",
    // 30 requests a minute for unauthenticated REST clients, every route together.
    requestsPerSecond: 0.5,
    source: "https://www.bitmex.com/api/explorer/#!/Funding/Funding_get; https://blog.bitmex.com/api_announcement/updates-to-rate-limits/",
  },
  async readPage(io, market, range, cursor) {
    const start = cursor === null ? range.since : cursorNumber("bitmex", cursor);
    const url = withQuery("https://www.bitmex.com/api/v1/funding", {
      symbol: market.venueMarketId,
      startTime: new Date(start).toISOString(),
      endTime: new Date(range.until).toISOString(),
      count: PAGE_SIZE,
      reverse: "false",
    });
    const rows = rowsAt("bitmex", await io.getJson(url));
    const settlements = rows.map((row) => ({
      time: isoMs("bitmex", row.timestamp, "timestamp"),
      rate: decimal("bitmex", row.fundingRate, "fundingRate"),
      intervalHours: bitmexIntervalHours(row.fundingInterval),
    }));
    const last = Math.max(...settlements.map((settlement) => settlement.time));
    return { settlements, next: rows.length < PAGE_SIZE || last >= range.until ? null : String(last + 1) };
  },
};
