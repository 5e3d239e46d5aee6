import type { VenueHistoryReader } from "../history-types";
import { at, decimal, epochMs, rowsAt, unexpectedAnswer, withQuery } from "./read-fields";

const PAGE_SIZE = 100;

/** BitMart's success code inside a 200 answer. */
const OK_CODE = 1000;

/**
 * BitMart futures v2 `GET /contract/public/funding-rate-history`: `symbol` and `limit` (at most
 * 100) are its only parameters, so it answers the latest 100 settlements and nothing older: no
 * time bound, no page, no cursor. One request is the whole history it serves (about 33 days of an
 * 8-hourly market, 4 of an hourly one). `funding_time` is ms as a string in the documented answer.
 */
export const bitmartHistory: VenueHistoryReader = {
  exchange: "bitmart",
  limits: {
    pageSize: PAGE_SIZE,
    maxDepthDays: null,
    pagination: "single-page",
    // 12 requests per 2 s per IP on the public contract endpoints.
    requestsPerSecond: 6,
    source:
      "https://developer-pro.bitmart.com/en/futuresv2/#get-funding-rate-history (no time parameters and no pagination: the latest 100 settlements only)",
  },
  async readPage(io, market) {
    const url = withQuery("https://api-cloud-v2.bitmart.com/contract/public/funding-rate-history", {
      symbol: market.venueMarketId,
      limit: PAGE_SIZE,
    });
    const answer = await io.getJson(url);
    if (at("bitmart", answer, ["code"]) !== OK_CODE) {
      throw unexpectedAnswer("bitmart", `code ${String(at("bitmart", answer, ["code"]))}: ${String(at("bitmart", answer, ["message"]))}`);
    }
    const settlements = rowsAt("bitmart", answer, ["data", "list"]).map((row) => ({
      time: epochMs("bitmart", row.funding_time, "funding_time"),
      rate: decimal("bitmart", row.funding_rate, "funding_rate"),
      intervalHours: null,
    }));
    return { settlements, next: null };
  },
};
