import type { VenueHistoryReader } from "../history-types";
import { cursorNumber, decimal, rowsAt, unexpectedAnswer, withQuery } from "./read-fields";

const PAGE_SIZE = 1000;

/** A zone designator at the end of an ISO time (`Z`, `+03:00`, `-0500`). */
const ZONE = /(Z|[+-]\d{2}:?\d{2})$/i;

/**
 * `intervalEndTimestamp` as epoch ms. Backpack writes it without a zone (`2026-09-23T04:00:00`) and
 * means UTC, where `Date.parse` would read a zone-less date-time as the machine's local time.
 */
export function backpackIntervalEnd(value: unknown): number {
  const text = typeof value === "string" ? value.trim() : "";
  const parsed = text === "" ? Number.NaN : Date.parse(ZONE.test(text) ? text : `${text}Z`);
  if (!Number.isFinite(parsed)) throw unexpectedAnswer("backpack", `intervalEndTimestamp is not an ISO time (${JSON.stringify(value)})`);
  return parsed;
}

/**
 * Backpack `GET /api/v1/fundingRates`: a bare array, newest first, `limit` rows from `offset`. The
 * first row is the interval still running (its end is in the future, its rate the live estimate
 * that moves every second), so the first page's newest row is dropped when it ends after `until`
 * rather than stored as a settlement. Rows state no interval (every perpetual settles hourly today, per `fundingInterval`
 * in the market list); it is derived from the times.
 */
export const backpackHistory: VenueHistoryReader = {
  exchange: "backpack",
  limits: {
    pageSize: PAGE_SIZE,
    maxDepthDays: null,
    pagination: "page-number",
    // No public figure is published (the API answers 429 past an unstated limit); ccxt assumes 20 a
    // second and 5 a second were probed without a 429.
    requestsPerSecond: 5,
    source:
      "https://docs.backpack.exchange/#tag/Markets/operation/get_funding_interval_rates; no published rate limit, 5/s probed without 429 (nemanull/arbitrage-observatory docs/profiles/backpack/rest.md)",
  },
  async readPage(io, market, range, cursor) {
    const offset = cursor === null ? 0 : cursorNumber("backpack", cursor);
    const url = withQuery("https://api.backpack.exchange/api/v1/fundingRates", {
      symbol: market.venueMarketId,
      limit: PAGE_SIZE,
      offset,
    });
    const rows = rowsAt("backpack", await io.getJson(url));
    const read = rows.map((row) => ({
      time: backpackIntervalEnd(row.intervalEndTimestamp),
      rate: decimal("backpack", row.fundingRate, "fundingRate"),
      intervalHours: null,
    }));
    const newest = Math.max(...read.map((settlement) => settlement.time));
    const oldest = Math.min(...read.map((settlement) => settlement.time));
    // Only the newest row of the first page can be the running interval; rows merely newer than a
    // walk reaching back are the caller's to skip (dropping them would end that walk on an empty page).
    const settlements = offset === 0 && newest > range.until ? read.filter((settlement) => settlement.time !== newest) : read;
    return { settlements, next: rows.length < PAGE_SIZE || oldest <= range.since ? null : String(offset + rows.length) };
  },
};
