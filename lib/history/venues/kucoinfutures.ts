import type { VenueHistoryReader } from "../history-types";
import { HOUR_MS } from "../../market/model/funding-interval";
import { at, backwardWindow, decimal, epochMs, rowsAt, unexpectedAnswer, withQuery } from "./read-fields";

const PAGE_SIZE = 100;

/**
 * KuCoin Futures `GET /api/v1/contract/funding-rates`: at most 100 rows between `from` and `to`
 * and no pagination at all (no page, no cursor, no "more" flag). The reader asks windows of 100
 * hours, which cannot hold more than 100 settlements at KuCoin's shortest interval (1 h), and
 * walks them back. `timepoint` is ms, `fundingRate` a number.
 */
export const kucoinfuturesHistory: VenueHistoryReader = {
  exchange: "kucoinfutures",
  limits: {
    pageSize: PAGE_SIZE,
    maxDepthDays: null,
    pagination: "backward-by-time",
    // Public pool: 2000 weight per 30 s; this endpoint weighs 5.
    requestsPerSecond: 2000 / 5 / 30,
    source:
      "https://www.kucoin.com/docs-new/rest/futures-trading/market-data/get-public-funding-history (100 rows an answer, no pagination: walked in 100-hour windows)",
  },
  async readPage(io, market, range, cursor) {
    const window = backwardWindow(range, cursor, PAGE_SIZE * HOUR_MS, "kucoinfutures");
    const url = withQuery("https://api-futures.kucoin.com/api/v1/contract/funding-rates", {
      symbol: market.venueMarketId,
      from: window.start,
      to: window.end,
    });
    const answer = await io.getJson(url);
    // Futures answers say "200000"; this endpoint's documented example says "200" with `success`.
    const code = at("kucoinfutures", answer, ["code"]);
    if (code !== "200000" && code !== "200") throw unexpectedAnswer("kucoinfutures", `code ${String(code)}`);
    const settlements = rowsAt("kucoinfutures", answer, ["data"]).map((row) => ({
      time: epochMs("kucoinfutures", row.timepoint, "timepoint"),
      rate: decimal("kucoinfutures", row.fundingRate, "fundingRate"),
      intervalHours: null,
    }));
    return { settlements, next: window.next };
  },
};
