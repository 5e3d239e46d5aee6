import type { VenueHistoryReader } from "../history-types";
import { HOUR_MS } from "../../market/model/funding-interval";
import { backwardWindow, decimal, epochMs, rowsAt, withQuery } from "./read-fields";

const PAGE_SIZE = 1000;

/**
 * Gate `GET /api/v4/futures/usdt/funding_rate`: `[{"t": <seconds>, "r": "<rate>"}]`, `from`/`to`
 * in seconds, at most 1000 rows. Windows of 1000 hours cannot hold more settlements than one
 * answer returns (Gate's shortest interval is 1 h), so which 1000 the venue would pick never matters.
 */
export const gateHistory: VenueHistoryReader = {
  exchange: "gate",
  limits: {
    pageSize: PAGE_SIZE,
    maxDepthDays: null,
    pagination: "backward-by-time",
    // 200 requests per 10 s per endpoint for public futures endpoints.
    requestsPerSecond: 20,
    source: "https://www.gate.io/docs/developers/apiv4/#funding-rate-history",
  },
  async readPage(io, market, range, cursor) {
    const window = backwardWindow(range, cursor, PAGE_SIZE * HOUR_MS, "gate");
    const url = withQuery("https://api.gateio.ws/api/v4/futures/usdt/funding_rate", {
      contract: market.venueMarketId,
      from: Math.ceil(window.start / 1000),
      to: Math.floor(window.end / 1000),
      limit: PAGE_SIZE,
    });
    const settlements = rowsAt("gate", await io.getJson(url)).map((row) => ({
      time: epochMs("gate", row.t, "t", "s"),
      rate: decimal("gate", row.r, "r"),
      intervalHours: null,
    }));
    return { settlements, next: window.next };
  },
};
