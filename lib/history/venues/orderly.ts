import type { VenueHistoryReader } from "../history-types";
import { at, cursorNumber, decimal, epochMs, rowsAt, unexpectedAnswer, withQuery } from "./read-fields";

/** The page size Orderly's example answer states (`records_per_page` 25); none is asked for. */
const PAGE_SIZE = 25;

/**
 * Orderly `GET /v1/public/funding_rate_history`: one market's settlements, pages by number within
 * [`start_t`, `end_t`] (13-digit ms timestamps, Orderly's docs), `{success, data: {rows, meta:
 * {total, records_per_page, current_page}}}` as ccxt's woofipro example answer shows it, every figure
 * a number. `next_funding_time` is the settlement after the row's, whose interval may differ from
 * the row's, so the interval is left to derive.
 */
export const orderlyHistory: VenueHistoryReader = {
  exchange: "orderly",
  limits: {
    pageSize: PAGE_SIZE,
    maxDepthDays: null,
    pagination: "page-number",
    // 10 requests per second per IP address.
    requestsPerSecond: 10,
    source: "https://orderly.network/docs/build-on-omnichain/restful-api/public/get-funding-rate-history-for-one-market",
  },
  async readPage(io, market, range, cursor) {
    const page = cursor === null ? 1 : cursorNumber("orderly", cursor);
    const url = withQuery("https://api.orderly.org/v1/public/funding_rate_history", {
      symbol: market.venueMarketId,
      start_t: range.since,
      end_t: range.until,
      page,
    });
    const answer = await io.getJson(url);
    if (at("orderly", answer, ["success"]) !== true) throw unexpectedAnswer("orderly", "success is not true");
    const rows = rowsAt("orderly", answer, ["data", "rows"]);
    const settlements = rows.map((row) => ({
      time: epochMs("orderly", row.funding_rate_timestamp, "funding_rate_timestamp"),
      rate: decimal("orderly", row.funding_rate, "funding_rate"),
      intervalHours: null,
    }));
    const total = decimal("orderly", at("orderly", answer, ["data", "meta", "total"]), "meta.total");
    const perPage = decimal("orderly", at("orderly", answer, ["data", "meta", "records_per_page"]), "meta.records_per_page");
    const current = decimal("orderly", at("orderly", answer, ["data", "meta", "current_page"]), "meta.current_page");
    return { settlements, next: rows.length > 0 && current * perPage < total ? String(current + 1) : null };
  },
};
