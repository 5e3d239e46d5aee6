import type { VenueHistoryReader } from "../history-types";
import { at, cursorNumber, decimal, epochMs, rowsAt, unexpectedAnswer, withQuery } from "./read-fields";

const PAGE_SIZE = 100;

/**
 * OKX `GET /api/v5/public/funding-rate-history`: newest first, 100 rows older than `after` (a
 * `fundingTime`), every field a string. The charged rate is `realizedRate`; `fundingRate` is the
 * rate predicted before settlement, read only from an answer without `realizedRate`. OKX serves
 * the last 3 months only.
 */
export const okxHistory: VenueHistoryReader = {
  exchange: "okx",
  limits: {
    pageSize: PAGE_SIZE,
    maxDepthDays: 90,
    pagination: "backward-by-time",
    // 10 requests per 2 s per IP and instrument.
    requestsPerSecond: 5,
    source: "https://www.okx.com/docs-v5/en/#public-data-rest-api-get-funding-rate-history",
  },
  async readPage(io, market, range, cursor) {
    // `after` is exclusive: one past `until` keeps a settlement exactly at `until`.
    const after = cursor === null ? range.until + 1 : cursorNumber("okx", cursor);
    const url = withQuery("https://www.okx.com/api/v5/public/funding-rate-history", { instId: market.venueMarketId, after, limit: PAGE_SIZE });
    const answer = await io.getJson(url);
    if (at("okx", answer, ["code"]) !== "0") throw unexpectedAnswer("okx", `code ${String(at("okx", answer, ["code"]))}`);
    const rows = rowsAt("okx", answer, ["data"]);
    const settlements = rows.map((row) => ({
      time: epochMs("okx", row.fundingTime, "fundingTime"),
      rate: decimal("okx", row.realizedRate ?? row.fundingRate, row.realizedRate === undefined ? "fundingRate" : "realizedRate"),
      intervalHours: null,
    }));
    const oldest = Math.min(...settlements.map((settlement) => settlement.time));
    return { settlements, next: rows.length < PAGE_SIZE || oldest <= range.since ? null : String(oldest) };
  },
};
