import type { VenueHistoryReader } from "../history-types";
import { HOUR_MS } from "../../market/model/funding-interval";
import { at, backwardWindow, decimal, epochMs, rowsAt, unexpectedAnswer, withQuery } from "./read-fields";

const PAGE_SIZE = 1000;

/**
 * Extended `GET /api/v1/info/{market}/funding`: hourly settlements (`T` ms, `f` a string). Its
 * `pagination.cursor` is an int64 that no JSON number survives (ccxt's recording already holds it
 * rounded), so it is never echoed: the reader walks back in windows of `PAGE_SIZE` hours, which
 * cannot hold more hourly settlements than one answer returns, whatever order the venue uses.
 */
export const extendedHistory: VenueHistoryReader = {
  exchange: "extended",
  limits: {
    pageSize: PAGE_SIZE,
    maxDepthDays: null,
    pagination: "backward-by-time",
    // Extended allows 1,000 REST requests a minute per IP.
    requestsPerSecond: 1000 / 60,
    source: "https://api.docs.extended.exchange/#get-funding-rates-history; ccxt recording (fixture extended/info_funding_BTC-USD_limit1_2026-04-30.json)",
  },
  async readPage(io, market, range, cursor) {
    const window = backwardWindow(range, cursor, PAGE_SIZE * HOUR_MS, "extended");
    const url = withQuery(`https://api.starknet.extended.exchange/api/v1/info/${encodeURIComponent(market.venueMarketId)}/funding`, {
      startTime: window.start,
      endTime: window.end,
      limit: PAGE_SIZE,
    });
    const answer = await io.getJson(url);
    if (at("extended", answer, ["status"]) !== "OK") throw unexpectedAnswer("extended", `status ${String(at("extended", answer, ["status"]))}`);
    const settlements = rowsAt("extended", answer, ["data"]).map((row) => ({
      time: epochMs("extended", row.T, "T"),
      rate: decimal("extended", row.f, "f"),
      intervalHours: 1,
    }));
    return { settlements, next: window.next };
  },
};
