import type { VenueHistoryReader } from "../history-types";
import { at, cursorNumber, decimal, epochMs, rowsAt, unexpectedAnswer, withQuery } from "./read-fields";

const PAGE_SIZE = 100;

/**
 * Bitget v2 `GET /api/v2/mix/market/history-fund-rate`: pages by number (`pageNo`, at most 100
 * rows a page), newest first, with no time bounds, so the walk stops at a short page or at the
 * first page reaching back past `since`. `fundingRate` and `fundingTime` are strings.
 */
export const bitgetHistory: VenueHistoryReader = {
  exchange: "bitget",
  limits: {
    pageSize: PAGE_SIZE,
    maxDepthDays: null,
    pagination: "page-number",
    // "Frequency limit: 20 times/1s (IP)".
    requestsPerSecond: 20,
    source: "https://www.bitget.com/api-doc/contract/market/Get-History-Funding-Rate",
  },
  async readPage(io, market, range, cursor) {
    const page = cursor === null ? 1 : cursorNumber("bitget", cursor);
    const url = withQuery("https://api.bitget.com/api/v2/mix/market/history-fund-rate", {
      symbol: market.venueMarketId,
      productType: "USDT-FUTURES",
      pageSize: PAGE_SIZE,
      pageNo: page,
    });
    const answer = await io.getJson(url);
    if (at("bitget", answer, ["code"]) !== "00000") throw unexpectedAnswer("bitget", `code ${String(at("bitget", answer, ["code"]))}`);
    const rows = rowsAt("bitget", answer, ["data"]);
    const settlements = rows.map((row) => ({
      time: epochMs("bitget", row.fundingTime, "fundingTime"),
      rate: decimal("bitget", row.fundingRate, "fundingRate"),
      intervalHours: null,
    }));
    const oldest = Math.min(...settlements.map((settlement) => settlement.time));
    return { settlements, next: rows.length < PAGE_SIZE || oldest <= range.since ? null : String(page + 1) };
  },
};
