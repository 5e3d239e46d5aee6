import type { VenueHistoryReader } from "../history-types";
import { VENUE_REQUEST_LIMITS } from "../../market/venues/venue-request-limits";
import { at, decimal, isoMs, rowsAt, unexpectedAnswer, withQuery } from "./read-fields";

/**
 * Kraken names no cap: one answer is every settlement since the contract's first trading day. The
 * figure is a bound for planning: hourly since PI_XBTUSD opened on 2018-08-31 is about 73,000
 * settlements by the end of 2026.
 */
const PAGE_SIZE = 73_000;

/** Kraken's error answer for a symbol it does not list: `errors: [{code: 11, message: "Argument invalid: symbol"}]`. */
function unknownSymbol(answer: unknown): string | null {
  if (typeof answer !== "object" || answer === null || (answer as { result?: unknown }).result !== "error") return null;
  const errors = (answer as { errors?: unknown }).errors;
  const invalid = Array.isArray(errors)
    ? errors.find((error): error is { code: unknown; message?: unknown } => typeof error === "object" && error !== null && (error as { code?: unknown }).code === 11)
    : undefined;
  return invalid === undefined ? null : `Kraken error 11: ${String(invalid.message ?? "Argument invalid: symbol")}`;
}

/**
 * Kraken Futures `GET /derivatives/api/v4/historicalfundingrates?symbol=`: `symbol` is its only
 * parameter, and the answer is the market's whole history, ascending (`{result, serverTime,
 * rates: [{timestamp, fundingRate, relativeFundingRate}]}`): no time bound, no page, one request.
 * The settlements of [since, until] are kept.
 *
 * `timestamp` is ISO text; `relativeFundingRate` is the fraction of notional charged for the row's
 * period, the rate every other venue quotes. `fundingRate` is **absolute** (quote currency per
 * contract; on an inverse contract the base per one-dollar contract) and is never read. Rows state
 * no interval: Kraken settled every 4 hours (the docs' 2022 example: 00:00, 04:00, 08:00) and
 * settles hourly today (`fundingRateCoefficient` 24), so it is derived from the gaps.
 */
export const krakenfuturesHistory: VenueHistoryReader = {
  exchange: "krakenfutures",
  limits: {
    pageSize: PAGE_SIZE,
    maxDepthDays: null,
    pagination: "single-page",
    // The live connector's budget (ccxt's 600 ms): Kraken publishes no per-IP figure for public
    // derivatives reads, and ccxt costs this endpoint 1.
    requestsPerSecond: VENUE_REQUEST_LIMITS.krakenfutures.requestsPerSecond,
    source:
      "https://docs.kraken.com/api-reference/historical-funding-rates/historical-funding-rates; " +
      "https://support.kraken.com/hc/en-us/articles/360061979852-Historical-Funding-Rates (v4 path, no time parameters: the whole history); rate limit: ccxt krakenfutures rateLimit 600 ms",
  },
  marketGone: unknownSymbol,
  async readPage(io, market, range) {
    const url = withQuery("https://futures.kraken.com/derivatives/api/v4/historicalfundingrates", { symbol: market.venueMarketId });
    const answer = await io.getJson(url);
    const result = at("krakenfutures", answer, ["result"]);
    if (result !== "success") throw unexpectedAnswer("krakenfutures", `result ${JSON.stringify(result)}: ${JSON.stringify((answer as { errors?: unknown }).errors ?? null)}`);
    const settlements = rowsAt("krakenfutures", answer, ["rates"])
      .map((row) => ({
        time: isoMs("krakenfutures", row.timestamp, "timestamp"),
        rate: decimal("krakenfutures", row.relativeFundingRate, "relativeFundingRate"),
        intervalHours: null,
      }))
      .filter((settlement) => settlement.time >= range.since && settlement.time <= range.until);
    return { settlements, next: null };
  },
};
