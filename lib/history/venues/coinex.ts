import type { VenueHistoryReader } from "../history-types";
import { at, cursorNumber, decimal, epochMs, rowsAt, unexpectedAnswer, withQuery } from "./read-fields";

const PAGE_SIZE = 100;

/**
 * CoinEx v2 `GET /futures/funding-rate-history`: pages by number within [start_time, end_time]
 * (`pagination.has_next`). The charged rate is `actual_funding_rate`; `theoretical_funding_rate`
 * is what the formula gave before caps.
 */
export const coinexHistory: VenueHistoryReader = {
  exchange: "coinex",
  limits: {
    pageSize: PAGE_SIZE,
    maxDepthDays: null,
    pagination: "page-number",
    // No per-endpoint figure was confirmed for this endpoint; 10 a second is a conservative budget.
    requestsPerSecond: 10,
    source: "https://docs.coinex.com/api/v2/futures/market/http/list-market-funding-rate-history",
  },
  async readPage(io, market, range, cursor) {
    const page = cursor === null ? 1 : cursorNumber("coinex", cursor);
    const url = withQuery("https://api.coinex.com/v2/futures/funding-rate-history", {
      market: market.venueMarketId,
      start_time: range.since,
      end_time: range.until,
      page,
      limit: PAGE_SIZE,
    });
    const answer = await io.getJson(url);
    if (at("coinex", answer, ["code"]) !== 0) throw unexpectedAnswer("coinex", `code ${String(at("coinex", answer, ["code"]))}`);
    // An answer can list several markets (the documented example does): keep the one asked for.
    const rows = rowsAt("coinex", answer, ["data"]).filter((row) => row.market === undefined || row.market === market.venueMarketId);
    const settlements = rows.map((row) => ({
      time: epochMs("coinex", row.funding_time, "funding_time"),
      rate: decimal("coinex", row.actual_funding_rate, "actual_funding_rate"),
      intervalHours: null,
    }));
    return { settlements, next: at("coinex", answer, ["pagination", "has_next"]) === true ? String(page + 1) : null };
  },
};
