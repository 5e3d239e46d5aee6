import type { VenueHistoryReader } from "../history-types";
import { HOUR_MS } from "../../market/model/funding-interval";
import { at, backwardWindow, decimal, epochMs, rowsAt, unexpectedAnswer, withQuery } from "./read-fields";

/** The documented default `count`; the docs state no maximum, so none is assumed. */
const PAGE_SIZE = 25;

/**
 * Crypto.com `GET /exchange/v1/public/get-valuations?valuation_type=funding_hist`: "hourly data of
 * the funding rate settled in past hourly settlement", `{v, t}` points (`v` a string, `t` ms) of
 * one instrument between `start_ts` and `end_ts` (ms, as ccxt sends them), at most `count` (25 by
 * default, no maximum documented). Each request asks a window of 24 hours, which cannot hold more
 * hourly settlements than one answer's 25: no page is cut whatever order the points come in. The
 * answer names its instrument; one naming another is refused.
 */
export const cryptocomHistory: VenueHistoryReader = {
  exchange: "cryptocom",
  limits: {
    pageSize: PAGE_SIZE,
    // `start_ts` defaults to 30 days back for `funding_hist`; how far back an explicit one reaches is not stated.
    maxDepthDays: null,
    pagination: "backward-by-time",
    // public/get-valuations: 100 requests a second per IP (the live refresh shares it).
    requestsPerSecond: 100,
    source: "https://exchange-docs.crypto.com/exchange/v1/rest-ws/index.html#public-get-valuations; https://exchange-docs.crypto.com/exchange/v1/rest-ws/index.html#rate-limits",
  },
  async readPage(io, market, range, cursor) {
    const window = backwardWindow(range, cursor, (PAGE_SIZE - 1) * HOUR_MS, "cryptocom");
    const url = withQuery("https://api.crypto.com/exchange/v1/public/get-valuations", {
      instrument_name: market.venueMarketId,
      valuation_type: "funding_hist",
      count: PAGE_SIZE,
      start_ts: window.start,
      end_ts: window.end,
    });
    const answer = await io.getJson(url);
    const code = at("cryptocom", answer, ["code"]);
    if (decimal("cryptocom", code, "code") !== 0) throw unexpectedAnswer("cryptocom", `code ${String(code)}`);
    const instrument = at("cryptocom", answer, ["result", "instrument_name"]);
    if (instrument !== market.venueMarketId) throw unexpectedAnswer("cryptocom", `asked for ${market.venueMarketId}, got ${String(instrument)}`);
    const settlements = rowsAt("cryptocom", answer, ["result", "data"]).map((row) => ({
      time: epochMs("cryptocom", row.t, "t"),
      rate: decimal("cryptocom", row.v, "v"),
      // Settled every hour (the docs above).
      intervalHours: 1,
    }));
    return { settlements, next: window.next };
  },
};
