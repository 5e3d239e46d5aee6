import type { VenueHistoryReader } from "../history-types";
import { backwardWindow, epochMs, decimal, rowsAt, withQuery } from "./read-fields";

const PAGE_SIZE = 100;
const HOUR_MS = 3_600_000;

/**
 * Hibachi `GET /market/data/funding-rates`: `{data: [{fundingTimestamp (s), fundingRate}], pagination}`,
 * one row a hourly settlement. An answer holds at most 100 rows (a larger `limit` is served as 100),
 * so the walk goes backward in windows of 100 hours between `startTime` and `endTime` (epoch seconds,
 * both inclusive), each of which cannot hold more. Those parameters are the ones a public client
 * reads the endpoint with (belyjelli/ai-rates `hibachi.ts`); the answer's shape is its recording
 * (tests/fixtures/history/SOURCES.md). Rows state no interval; it is derived from their times.
 */
export const hibachiHistory: VenueHistoryReader = {
  exchange: "hibachi",
  limits: {
    pageSize: PAGE_SIZE,
    maxDepthDays: null,
    pagination: "backward-by-time",
    // No published figure; ccxt's hibachi class throttles at 100 ms.
    requestsPerSecond: 10,
    source:
      "https://api-doc.hibachi.xyz (publishes no per-IP figure, per a public client that read it; ccxt's hibachi class throttles at 100 ms); windows of 100 h, as many settlements as a 100-row answer holds",
  },
  async readPage(io, market, range, cursor) {
    const window = backwardWindow(range, cursor, PAGE_SIZE * HOUR_MS, "hibachi");
    const url = withQuery("https://data-api.hibachi.xyz/market/data/funding-rates", {
      symbol: market.venueMarketId,
      startTime: Math.ceil(window.start / 1000),
      endTime: Math.floor(window.end / 1000),
      limit: PAGE_SIZE,
    });
    const rows = rowsAt("hibachi", await io.getJson(url), ["data"]);
    return {
      settlements: rows.map((row) => ({
        time: epochMs("hibachi", row.fundingTimestamp, "fundingTimestamp", "s"),
        rate: decimal("hibachi", row.fundingRate, "fundingRate"),
        intervalHours: null,
      })),
      next: window.next,
    };
  },
};
