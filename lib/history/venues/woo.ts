import type { VenueHistoryReader } from "../history-types";
import { at, cursorNumber, decimal, epochMs, rowsAt, unexpectedAnswer, withQuery } from "./read-fields";

/** The documented default `size`; no larger size is documented, so none is asked for. */
const PAGE_SIZE = 25;

/**
 * WOO X v3 `GET /v3/public/fundingRateHistory`: pages by number within [`startTime`, `endTime`]
 * (ms), `{success, data: {rows, meta: {total, recordsPerPage, currentPage}}}`. The page count
 * comes from `meta` (numbers, or strings in some WOO answers), not from a guess at the order rows
 * come in. `fundingRate` is a string;
 * `nextFundingTime` is the settlement after the row's, whose interval may differ from the row's,
 * so the interval is left to derive.
 */
export const wooHistory: VenueHistoryReader = {
  exchange: "woo",
  limits: {
    pageSize: PAGE_SIZE,
    maxDepthDays: null,
    pagination: "page-number",
    // 10 requests per second per IP address.
    requestsPerSecond: 10,
    source: "https://developer.woox.io/api-reference/endpoint/public_data/fundingRateHistory",
  },
  async readPage(io, market, range, cursor) {
    const page = cursor === null ? 1 : cursorNumber("woo", cursor);
    const url = withQuery("https://api.woox.io/v3/public/fundingRateHistory", {
      symbol: market.venueMarketId,
      startTime: range.since,
      endTime: range.until,
      page,
      size: PAGE_SIZE,
    });
    const answer = await io.getJson(url);
    if (at("woo", answer, ["success"]) !== true) throw unexpectedAnswer("woo", "success is not true");
    const rows = rowsAt("woo", answer, ["data", "rows"]);
    const settlements = rows.map((row) => ({
      time: epochMs("woo", row.fundingRateTimestamp, "fundingRateTimestamp"),
      rate: decimal("woo", row.fundingRate, "fundingRate"),
      intervalHours: null,
    }));
    const total = decimal("woo", at("woo", answer, ["data", "meta", "total"]), "meta.total");
    const perPage = decimal("woo", at("woo", answer, ["data", "meta", "recordsPerPage"]), "meta.recordsPerPage");
    const current = decimal("woo", at("woo", answer, ["data", "meta", "currentPage"]), "meta.currentPage");
    return { settlements, next: rows.length > 0 && current * perPage < total ? String(current + 1) : null };
  },
};
