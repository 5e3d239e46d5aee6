import type { VenueHistoryReader } from "../history-types";
import { HOUR_MS } from "../../market/model/funding-interval";
import { backwardWindow, decimal, epochMs, rowsAt, unexpectedAnswer, withQuery } from "./read-fields";

/** ccxt saw one answer hold at most 744 rows (31 days of hours); windows of 720 h stay below it. */
const PAGE_SIZE = 744;
const WINDOW_HOURS = 720;

/**
 * Deribit `public/get_funding_rate_history` (JSON-RPC over GET): one row an hour within
 * [`start_timestamp`, `end_timestamp`] (ms), `{jsonrpc, result: [...]}`.
 *
 * Deribit has no settlements: funding accrues continuously and is paid as it accrues. Each row
 * samples that accrual on the hour: `interest_1h` is the rate over the hour ending at `timestamp`
 * (`prev_index_price` is the index at the hour's start, `index_price` at its end), and
 * `interest_8h` the rate over the trailing 8 hours (Deribit's "1hour/8hour interest rate", as
 * OpenBB's Deribit provider spells them out). The hourly rows are served as hourly
 * settlements of `interest_1h` (rate per hour, interval 1 h): summed, they are what a position
 * paid, which is what a settlement series is for. `interest_8h` is never read: each hour lies in
 * eight consecutive trailing windows, so storing it hourly would count every hour eight times.
 *
 * ccxt asks from `since − 1` ms; so does this reader, so a row stamped exactly at a window's start
 * is not lost if the bound is exclusive (the walk dedupes by settlement slot if it is not).
 */
export const deribitHistory: VenueHistoryReader = {
  exchange: "deribit",
  limits: {
    pageSize: PAGE_SIZE,
    maxDepthDays: null,
    pagination: "backward-by-time",
    // Non-matching-engine requests: 500 of 50,000 credits each, refilled at 10,000 a second.
    requestsPerSecond: 20,
    source: "https://docs.deribit.com/#public-get_funding_rate_history; https://support.deribit.com/hc/en-us/articles/25944617523357-Rate-Limits",
  },
  async readPage(io, market, range, cursor) {
    const window = backwardWindow(range, cursor, WINDOW_HOURS * HOUR_MS, "deribit");
    const url = withQuery("https://www.deribit.com/api/v2/public/get_funding_rate_history", {
      instrument_name: market.venueMarketId,
      start_timestamp: window.start - 1,
      end_timestamp: window.end,
    });
    const answer = await io.getJson(url);
    if (typeof answer === "object" && answer !== null && "error" in answer) {
      throw unexpectedAnswer("deribit", `error ${JSON.stringify((answer as { error: unknown }).error)}`);
    }
    const settlements = rowsAt("deribit", answer, ["result"]).map((row) => ({
      time: epochMs("deribit", row.timestamp, "timestamp"),
      rate: decimal("deribit", row.interest_1h, "interest_1h"),
      intervalHours: 1,
    }));
    return { settlements, next: window.next };
  },
};
