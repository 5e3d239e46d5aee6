import type { HistorySettlement, VenueHistoryReader } from "../history-types";
import { HOUR_MS } from "../../market/model/funding-interval";
import { VENUE_REQUEST_LIMITS } from "../../market/venues/venue-request-limits";
import { at, backwardWindow, decimal, rowsAt, unexpectedAnswer, withQuery } from "./read-fields";

/**
 * One answer holds at most about 750 rows: df-lighter-core (docs.rs, `src/markets/funding.rs`,
 * `FUNDINGS_PER_CALL`) and lighter-data (PyPI) both found the cap, and the venue cuts a longer
 * answer without saying so. Windows of 720 hours stay below it at one settlement an hour.
 */
const PAGE_SIZE = 750;
const WINDOW_HOURS = 720;

/**
 * Lighter's integer market id, as the live connector reports it (`market_id` of
 * `orderBookDetails`, which ccxt keeps as the market's id): the request takes nothing else.
 */
function marketId(venueMarketId: string): string {
  if (!/^\d+$/.test(venueMarketId)) throw unexpectedAnswer("lighter", `market id ${JSON.stringify(venueMarketId)} is not Lighter's integer market_id`);
  return venueMarketId;
}

/**
 * One row as a settlement, or null for a row whose sign cannot be read.
 *
 * `rate` is the magnitude in percent of the notional for the hour and `direction` names the side
 * that paid: `"0.0012"` with `long` is +0.000012 an hour (longs paid shorts, the sign every other
 * venue's rate has), with `short` it is −0.000012 (shorts paid longs). Sources: df-lighter-core
 * 0.0.1-beta `src/markets/funding.rs` ("`rate` in percent of the notional for the hour, paid by
 * the side `direction` names … positive when longs paid", recorded 2026-10-25); nautilus_trader's
 * `parse_funding_rate_update` ("direction as the side paying the funding … positive when longs pay
 * shorts"); a Rust connector's test measured on 2026-09-30 (0.0012 = 1.2e-5 an hour, `short`
 * negative); and the live connector, whose `funding-rates` figure ÷ 8 meets this one (÷ 100) for
 * the same hour. A row with a non-zero rate and another direction is dropped, not guessed: a wrong
 * sign would store the opposite cash flow.
 */
function settlement(row: Record<string, unknown>): HistorySettlement | null {
  const percent = decimal("lighter", row.rate, "rate");
  if (percent < 0) throw unexpectedAnswer("lighter", `rate ${JSON.stringify(row.rate)} is signed; the sign belongs in direction`);
  const seconds = decimal("lighter", row.timestamp, "timestamp");
  // A zero rate has no sign to read, whatever the direction says.
  const sign = percent === 0 ? 1 : row.direction === "long" ? 1 : row.direction === "short" ? -1 : 0;
  if (sign === 0) return null;
  // 15 significant digits drop the division's float noise (0.0012 / 100 is not 0.000012 exactly).
  const rate = percent === 0 ? 0 : sign * Number((percent / 100).toPrecision(15));
  return { time: seconds * 1000, rate, intervalHours: 1 };
}

/**
 * Lighter `GET /api/v1/fundings`: one row per hourly settlement with `resolution=1h`, `timestamp`
 * in seconds, every parameter required (`market_id`, `resolution`, `start_timestamp`,
 * `end_timestamp`, `count_back`). `count_back` asks at least that many rows back from
 * `end_timestamp` (the venue reaches past `start_timestamp` to fill it), so it is the window's
 * hour count. `end_timestamp` must exceed `start_timestamp` or the venue refuses the request.
 * Each request asks a window of 720 hours, newest first, the next one ending just before it
 * starts; the window's start is asked one second early, as Deribit's is, so a row stamped on the
 * boundary is read whether the bound is inclusive or not (the walk dedupes by slot).
 *
 * The settlements are hourly by protocol and the answer's `resolution` says `1h`: each row states
 * a 1 h interval. No source names an unknown-market answer for this endpoint, and Lighter answers
 * an unknown `market_id` on `orderBookOrders` with an empty success (measured by the same Rust
 * connector), so no `marketGone` is declared: an empty answer ends the walk as a market with no
 * history there. A `code` other than 200 in a 200 answer (20001 invalid param, 23000 "Too Many
 * Requests!") is a failure the backfill retries.
 */
export const lighterHistory: VenueHistoryReader = {
  exchange: "lighter",
  limits: {
    pageSize: PAGE_SIZE,
    maxDepthDays: null,
    pagination: "backward-by-time",
    // The same budget as the live connector's: Lighter publishes no per-IP figure for public reads.
    requestsPerSecond: VENUE_REQUEST_LIMITS.lighter.requestsPerSecond,
    source:
      "https://apidocs.lighter.xyz/reference/fundings; row cap: https://docs.rs/crate/df-lighter-core/latest/source/src/markets/funding.rs; " +
      "rate limit: ccxt lighter rateLimit 1000 ms (60 requests a minute)",
  },
  async readPage(io, market, range, cursor) {
    const window = backwardWindow(range, cursor, WINDOW_HOURS * HOUR_MS, "lighter");
    const end = Math.floor(window.end / 1000);
    const start = Math.min(Math.ceil(window.start / 1000) - 1, end - 1);
    const url = withQuery("https://mainnet.zklighter.elliot.ai/api/v1/fundings", {
      market_id: marketId(market.venueMarketId),
      resolution: "1h",
      start_timestamp: start,
      end_timestamp: end,
      count_back: Math.max(1, Math.ceil((end - start) / 3600)),
    });
    const answer = await io.getJson(url);
    const code = at("lighter", answer, ["code"]);
    if (code !== 200) throw unexpectedAnswer("lighter", `code ${JSON.stringify(code)}: ${String((answer as { message?: unknown }).message ?? "")}`);
    const resolution = (answer as { resolution?: unknown }).resolution;
    if (resolution !== undefined && resolution !== "1h") throw unexpectedAnswer("lighter", `resolution ${JSON.stringify(resolution)}, not the 1h asked`);
    const settlements = rowsAt("lighter", answer, ["fundings"])
      .map(settlement)
      .filter((row): row is HistorySettlement => row !== null);
    return { settlements, next: window.next };
  },
};
