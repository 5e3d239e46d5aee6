import type { VenueHistoryReader } from "../history-types";
import { at, cursorNumber, decimal, epochMs, rowsAt, unexpectedAnswer, withQuery } from "./read-fields";

const PAGE_SIZE = 100;

/**
 * MEXC `GET /api/v1/contract/funding_rate/history`: pages by number (`page_num`, camelCase
 * `data.currentPage`/`data.totalPage`/`data.resultList`, unlike HTX's snake_case), newest first.
 * `fundingRate` is a number, `settleTime` ms, and `collectCycle` states the interval in hours.
 */
export const mexcHistory: VenueHistoryReader = {
  exchange: "mexc",
  limits: {
    pageSize: PAGE_SIZE,
    maxDepthDays: null,
    pagination: "page-number",
    // 20 requests per 2 s per IP for public contract endpoints.
    requestsPerSecond: 10,
    source: "https://mexcdevelop.github.io/apidocs/contract_v1_en/#get-contract-funding-rate-history",
  },
  async readPage(io, market, range, cursor) {
    const page = cursor === null ? 1 : cursorNumber("mexc", cursor);
    const url = withQuery("https://contract.mexc.com/api/v1/contract/funding_rate/history", {
      symbol: market.venueMarketId,
      page_num: page,
      page_size: PAGE_SIZE,
    });
    const answer = await io.getJson(url);
    if (at("mexc", answer, ["success"]) !== true) throw unexpectedAnswer("mexc", `code ${String(at("mexc", answer, ["code"]))}`);
    const rows = rowsAt("mexc", answer, ["data", "resultList"]);
    const settlements = rows.map((row) => ({
      time: epochMs("mexc", row.settleTime, "settleTime"),
      rate: decimal("mexc", row.fundingRate, "fundingRate"),
      intervalHours: row.collectCycle === undefined ? null : decimal("mexc", row.collectCycle, "collectCycle"),
    }));
    const totalPages = decimal("mexc", at("mexc", answer, ["data", "totalPage"]), "totalPage");
    const oldest = Math.min(...settlements.map((settlement) => settlement.time));
    return { settlements, next: page < totalPages && rows.length > 0 && oldest > range.since ? String(page + 1) : null };
  },
};
