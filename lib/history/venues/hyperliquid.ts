import type { VenueId } from "../../market/model/types";
import type { VenueHistoryReader } from "../history-types";
import { cursorNumber, decimal, epochMs, rowsAt } from "./read-fields";

/**
 * Hyperliquid `POST /info {"type":"fundingHistory"}`: ascending from `startTime`. One answer has
 * held 1038 rows (2023) and is about 500 now, so the cap is not a signal of the end: the walk goes
 * on from the last `time` + 1 until an answer is empty or reaches `until`. `fundingRate` is a
 * string and already the hourly rate; funding was 8-hourly before 2023-06-08, so the interval is
 * left to derive from the times.
 */
export const hyperliquidHistory: VenueHistoryReader = hyperliquidFundingHistory("hyperliquid");

/**
 * The `fundingHistory` reader for a venue served by Hyperliquid's API: the main dex, or a HIP-3 dex,
 * whose coins carry its prefix (`xyz:TSLA`, the connector's `venueMarketId`) and whose answer has the
 * main dex's shape (Hyperliquid's docs show both). All of them spend the one Hyperliquid budget.
 */
export function hyperliquidFundingHistory(exchange: VenueId): VenueHistoryReader {
  return {
    exchange,
    limits: {
      pageSize: 500,
      maxDepthDays: null,
      pagination: "forward-by-time",
      // 1200 weight a minute per IP; fundingHistory weighs 20 plus 1 per 20 rows (45 for 500 rows).
      requestsPerSecond: 1200 / 45 / 60,
      source: "https://hyperliquid.gitbook.io/hyperliquid-docs/for-developers/api/rate-limits-and-user-limits",
    },
    async readPage(io, market, range, cursor) {
      const startTime = cursor === null ? range.since : cursorNumber(exchange, cursor);
      const body = { type: "fundingHistory", coin: market.venueMarketId, startTime, endTime: range.until };
      const rows = rowsAt(exchange, await io.postJson("https://api.hyperliquid.xyz/info", body));
      const settlements = rows.map((row) => ({
        time: epochMs(exchange, row.time, "time"),
        rate: decimal(exchange, row.fundingRate, "fundingRate"),
        intervalHours: null,
      }));
      const last = Math.max(...settlements.map((settlement) => settlement.time));
      return { settlements, next: rows.length === 0 || last >= range.until ? null : String(last + 1) };
    },
  };
}
