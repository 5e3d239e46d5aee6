import type { VenueHistoryReader } from "../history-types";
import { HOUR_MS } from "../../market/model/funding-interval";
import { at, backwardWindow, decimal, epochMs, rowsAt, unexpectedAnswer, withQuery } from "./read-fields";

const PAGE_SIZE = 1000;

/**
 * BingX `GET /openApi/swap/v2/quote/fundingRate`: newest first, at most `limit` 1000 rows within
 * [`startTime`, `endTime`] (ms); `fundingRate` a string, `fundingTime` ms. BingX does not say which
 * 1000 rows a longer window returns, so each request asks a window of 1000 hours, which cannot hold
 * more settlements than one answer (BingX's shortest interval is 1 h). The documented request sends
 * no `timestamp`, and none is sent. The answer states no interval.
 */
export const bingxHistory: VenueHistoryReader = {
  exchange: "bingx",
  limits: {
    pageSize: PAGE_SIZE,
    maxDepthDays: null,
    pagination: "backward-by-time",
    // Market group: 500 requests per 10 s and 1,000 per minute per IP, every market endpoint together.
    requestsPerSecond: 16.6,
    source: "https://bingx-api.github.io/docs/#/en-us/swapV2/market-api.html; https://bingx-api.github.io/docs/#/en-us/swapV2/base-info.html",
  },
  // BingX's error-code table (base-info) lists 109425 "Trading pair does not exist" for a symbol it
  // does not list, a delisted one included: the market is gone, not the venue down.
  marketGone(answer) {
    const code = typeof answer === "object" && answer !== null ? Number((answer as { code?: unknown }).code) : NaN;
    return code === 109425 ? `BingX code 109425: ${String((answer as { msg?: unknown }).msg ?? "trading pair does not exist")}` : null;
  },
  async readPage(io, market, range, cursor) {
    const window = backwardWindow(range, cursor, PAGE_SIZE * HOUR_MS, "bingx");
    const url = withQuery("https://open-api.bingx.com/openApi/swap/v2/quote/fundingRate", {
      symbol: market.venueMarketId,
      startTime: window.start,
      endTime: window.end,
      limit: PAGE_SIZE,
    });
    const answer = await io.getJson(url);
    // `code` is 0 or "0": ccxt's recorded BingX answers carry both.
    if (decimal("bingx", at("bingx", answer, ["code"]), "code") !== 0) {
      throw unexpectedAnswer("bingx", `code ${String(at("bingx", answer, ["code"]))}: ${String(at("bingx", answer, ["msg"]))}`);
    }
    const settlements = rowsAt("bingx", answer, ["data"]).map((row) => ({
      time: epochMs("bingx", row.fundingTime, "fundingTime"),
      rate: decimal("bingx", row.fundingRate, "fundingRate"),
      intervalHours: null,
    }));
    return { settlements, next: window.next };
  },
};
