import type { VenueHistoryReader } from "../history-types";
import { at, decimal, epochMs, rowsAt, unexpectedAnswer, withQuery } from "./read-fields";

/**
 * BTSE `GET /public-api/market/v1/recentFundingHistory`: `symbol` and a `period` of `7D`, `2W` or
 * `1M` are its only parameters (ccxt's btse class), so one request for `1M` is the whole history it
 * serves: no time bound, no page. `timestamp` is ms with a few hundred ms of jitter past the
 * settlement (ccxt's example: 1786003200911), which the walk's settlement slots absorb; `rate` a
 * string. No interval is stated.
 */
export const btseHistory: VenueHistoryReader = {
  exchange: "btse",
  limits: {
    // A month of hourly settlements at most (no row limit is documented).
    pageSize: 744,
    maxDepthDays: 30,
    pagination: "single-page",
    // The market endpoints' budget (venue-request-limits.ts): ccxt's 75 units a second at cost 3.
    requestsPerSecond: 25,
    source: "https://docs.btse.com/markets/rest/get-funding-rate-history/ (as ccxt 4.5.84 cites and reads it: period 7D, 2W or 1M; no per-IP figure found)",
  },
  async readPage(io, market) {
    const url = withQuery("https://api.btse.com/public-api/market/v1/recentFundingHistory", { symbol: market.venueMarketId, period: "1M" });
    const answer = await io.getJson(url);
    if (at("btse", answer, ["success"]) !== true) throw unexpectedAnswer("btse", `code ${String(at("btse", answer, ["code"]))}: ${String(at("btse", answer, ["msg"]))}`);
    const settlements = rowsAt("btse", answer, ["data"]).map((row) => ({
      time: epochMs("btse", row.timestamp, "timestamp"),
      rate: decimal("btse", row.rate, "rate"),
      intervalHours: null,
    }));
    return { settlements, next: null };
  },
};
