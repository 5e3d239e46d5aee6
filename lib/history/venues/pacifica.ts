import type { VenueHistoryReader } from "../history-types";
import { VENUE_REQUEST_LIMITS } from "../../market/venues/venue-request-limits";
import { at, decimal, epochMs, rowsAt, unexpectedAnswer, withQuery } from "./read-fields";

/** The docs' largest `limit` (default 100). */
const PAGE_SIZE = 4000;

/**
 * Pacifica `GET /api/v1/funding_rate/history?symbol=&limit=&cursor=`: `{success, data: [...],
 * next_cursor, has_more}`, newest first, `limit` rows a page and the next page older, from the
 * `next_cursor` sent back as `cursor`. There is no time parameter, so a walk starts at the newest
 * row and pages back until a page reaches `since` or `has_more` is false. A symbol Pacifica does
 * not list answers an empty list (so does a wrong-case one): no `marketGone`.
 *
 * Each row is a snapshot taken at the hourly settlement (`created_at` ms, a fraction of a second
 * past the hour), and of its two rates the settled one is `next_funding_rate`, not `funding_rate`:
 * `funding_rate` is the rate settled an hour earlier (each row's `funding_rate` is the row before's
 * `next_funding_rate`), as on the market list, where `funding_rate` is the last settlement's and
 * `next_funding_rate` the running estimate of the coming one that becomes it. A third-party
 * client's live captures of 2026-09-12 pin it: the 21:00 row reads `funding_rate` 0.00001101 and
 * `next_funding_rate` 0.00001085, and the market list read at 21:47 names 0.00001085 as the last
 * settled rate (tests/fixtures/history/SOURCES.md, Pacifica). The rate is a fraction for the hour
 * (0.0000125 is the 0.01 % per 8 h baseline over 8): each row states a 1 h interval.
 */
export const pacificaHistory: VenueHistoryReader = {
  exchange: "pacifica",
  limits: {
    pageSize: PAGE_SIZE,
    maxDepthDays: null,
    pagination: "cursor",
    // The live connector's budget: 100 credits a minute per IP without an API config key, one
    // credit a request.
    requestsPerSecond: VENUE_REQUEST_LIMITS.pacifica.requestsPerSecond,
    source:
      "https://pacifica.gitbook.io/docs/api-documentation/api/rest-api/markets/get-historical-funding; " +
      "rate limit: https://docs.pacifica.fi/api-documentation/api/rate-limits",
  },
  async readPage(io, market, range, cursor) {
    const url = withQuery("https://api.pacifica.fi/api/v1/funding_rate/history", {
      symbol: market.venueMarketId,
      limit: PAGE_SIZE,
      cursor: cursor ?? undefined,
    });
    const answer = await io.getJson(url);
    if (at("pacifica", answer, ["success"]) !== true) {
      throw unexpectedAnswer("pacifica", `success ${JSON.stringify((answer as { success?: unknown }).success)}: ${JSON.stringify((answer as { error?: unknown }).error ?? null)}`);
    }
    const settlements = rowsAt("pacifica", answer, ["data"]).map((row) => ({
      time: epochMs("pacifica", row.created_at, "created_at"),
      rate: decimal("pacifica", row.next_funding_rate, "next_funding_rate"),
      intervalHours: 1,
    }));
    const { has_more: more, next_cursor: next } = answer as { has_more?: unknown; next_cursor?: unknown };
    const oldest = Math.min(...settlements.map((settlement) => settlement.time));
    const goOn = more === true && typeof next === "string" && next !== "" && settlements.length > 0 && oldest > range.since;
    return { settlements, next: goOn ? next : null };
  },
};
