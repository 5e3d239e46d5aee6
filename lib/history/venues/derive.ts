import type { VenueHistoryReader } from "../history-types";
import { HOUR_MS } from "../../market/model/funding-interval";
import { VENUE_REQUEST_LIMITS } from "../../market/venues/venue-request-limits";
import { backwardWindow, decimal, epochMs, rowsAt, unexpectedAnswer } from "./read-fields";

/**
 * Derive answers every row of the window asked, with no page (`page`/`page_size` are accepted and
 * ignored), but answers nothing at all for a window of 30 days or more: windows of 28 days (672
 * hourly rows) are the widest measured to work. Measured by web3-ethereum-defi's Derive scanner
 * (`eth_defi/derive/README-derive.md`, "API quirks", 2026-03-18), which also found the whole
 * history served back to each perpetual's listing despite the docs' "at most 30 days ago".
 */
const WINDOW_HOURS = 672;

/**
 * Derive (formerly Lyra) `POST /public/get_funding_rate_history` `{instrument_name,
 * start_timestamp, end_timestamp}` (ms): `{result: {funding_rate_history: [{timestamp,
 * funding_rate}]}}`, one row a whole UTC hour, `funding_rate` a decimal string. Parameters spelt
 * otherwise are ignored silently and the venue answers its latest 30 days, so the names are the
 * docs' exactly. A JSON-RPC `error` in the answer is a failure.
 *
 * The rate is the hourly one (the ticker's `perp_details.funding_rate`, bounded by
 * `max_rate_per_hour`): each row states a 1 h interval. Windows go back from `until`, 672 hours
 * each; the window's start is asked one millisecond early, as Deribit's is, so a row on the
 * boundary is read whether the bound is inclusive or not (the walk dedupes by slot).
 */
export const deriveHistory: VenueHistoryReader = {
  exchange: "derive",
  limits: {
    pageSize: WINDOW_HOURS,
    maxDepthDays: null,
    pagination: "backward-by-time",
    // The live connector's budget (ccxt's 50 ms spacing): Derive publishes no per-IP figure.
    requestsPerSecond: VENUE_REQUEST_LIMITS.derive.requestsPerSecond,
    source:
      "https://docs.derive.xyz/reference/public-get_funding_rate_history; 28-day windows and full depth measured by " +
      "https://github.com/tradingstrategy-ai/web3-ethereum-defi/blob/master/eth_defi/derive/README-derive.md; rate limit: ccxt derive rateLimit 50 ms",
  },
  async readPage(io, market, range, cursor) {
    const window = backwardWindow(range, cursor, WINDOW_HOURS * HOUR_MS, "derive");
    const answer = await io.postJson("https://api.lyra.finance/public/get_funding_rate_history", {
      instrument_name: market.venueMarketId,
      start_timestamp: window.start - 1,
      end_timestamp: window.end,
    });
    if (typeof answer === "object" && answer !== null && "error" in answer) {
      throw unexpectedAnswer("derive", `error ${JSON.stringify((answer as { error: unknown }).error)}`);
    }
    const settlements = rowsAt("derive", answer, ["result", "funding_rate_history"]).map((row) => ({
      time: epochMs("derive", row.timestamp, "timestamp"),
      rate: decimal("derive", row.funding_rate, "funding_rate"),
      intervalHours: 1,
    }));
    return { settlements, next: window.next };
  },
};
