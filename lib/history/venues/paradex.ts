import { HOUR_MS } from "../../market/model/funding-interval";
import {
  BOUNDARY_TOLERANCE_MS,
  aggregateObservations,
  periodStart,
  type FundingObservation,
} from "../aggregate-observations";
import type { HistoryIo, HistoryMarket, VenueHistoryReader } from "../history-types";
import { cursorNumber, decimal, rowsAt, unexpectedAnswer, withQuery } from "./read-fields";

const URL_BASE = "https://api.prod.paradex.trade/v1/funding/data";

/** Periods one `readPage` settles: 8 days of an 8 h market, one day of an hourly one. */
const PAGE_PERIODS = 24;

/** Rows asked for one boundary window: 30 s at the 1 s the venue computes on, with room to spare. */
const WINDOW_PAGE_SIZE = 100;

/** `next` pages followed inside one window before giving up on it (a window holds ~31 rows at most). */
const MAX_WINDOW_PAGES = 5;

/**
 * One row of `/v1/funding/data`. `funding_rate` is per the row's own `funding_period_hours`
 * (`funding_rate_8h` is the same rate cut to 8 decimals, so it is not read); a period of 0 or none
 * (rows of markets that state no period) is unknown, never assumed 8.
 */
function observation(row: Record<string, unknown>): FundingObservation {
  const period = decimal("paradex", row.funding_period_hours ?? 0, "funding_period_hours");
  return {
    time: decimal("paradex", row.created_at, "created_at"),
    fundingIndex: decimal("paradex", row.funding_index, "funding_index"),
    premium: decimal("paradex", row.funding_premium, "funding_premium"),
    rate: decimal("paradex", row.funding_rate, "funding_rate"),
    periodHours: period > 0 ? period : null,
  };
}

/** The market's rows answering `query`; `follow` walks the venue's `next` cursor (a boundary window), else one page. */
async function readObservations(
  io: HistoryIo,
  market: HistoryMarket,
  query: Record<string, number>,
  follow: boolean,
): Promise<FundingObservation[]> {
  const observations: FundingObservation[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < (follow ? MAX_WINDOW_PAGES : 1); page += 1) {
    const answer = await io.getJson(withQuery(URL_BASE, { market: market.venueMarketId, ...query, cursor }));
    const rows = rowsAt("paradex", answer, ["results"]).filter((row) => row.market === market.venueMarketId);
    observations.push(...rows.map(observation));
    const next = (answer as Record<string, unknown>).next;
    if (typeof next !== "string" || next === "") return observations;
    cursor = next;
  }
  if (follow) throw unexpectedAnswer("paradex", `a ${BOUNDARY_TOLERANCE_MS} ms window ran past ${MAX_WINDOW_PAGES} pages`);
  return observations;
}

/**
 * Paradex `GET /v1/funding/data`: observations newest first (every 5 s, each a rate per the
 * market's funding period plus the cumulative funding index), never settlements: see
 * `../aggregate-observations.ts`. A page settles up to `PAGE_PERIODS` whole periods going back:
 * one row at or before the cursor gives the market's period and the newest boundary, then one short
 * window per boundary (`start_at` = boundary, `end_at` = boundary + 30 s, following `next`) pins the
 * index there, and each period both of whose ends are pinned becomes a settlement at its end. The
 * cursor is the oldest boundary read; the next page starts from its window.
 */
export const paradexHistory: VenueHistoryReader = {
  exchange: "paradex",
  limits: {
    // One settlement per request: every boundary window closes one period.
    pageSize: 1,
    maxDepthDays: null,
    pagination: "backward-by-time",
    // 1500 requests a minute per IP for every public endpoint.
    requestsPerSecond: 25,
    source: "https://docs.paradex.trade/api/general-information/rate-limits/api; https://docs.paradex.trade/api/prod/markets/get-funding-data",
  },
  async readPage(io, market, range, cursor) {
    const end = cursor === null ? range.until : cursorNumber("paradex", cursor) + BOUNDARY_TOLERANCE_MS;
    const [latest] = await readObservations(io, market, { end_at: end, page_size: 1 }, false);
    // Nothing at or before `end` (before listing), or rows that state no period: nothing to settle.
    if (!latest || latest.periodHours === null) return { settlements: [], next: null };
    const periodMs = latest.periodHours * HOUR_MS;
    const boundaries: number[] = [];
    for (let boundary = periodStart(latest.time, latest.periodHours); ; boundary -= periodMs) {
      boundaries.push(boundary);
      if (boundary < range.since || boundaries.length > PAGE_PERIODS) break;
    }
    const observations: FundingObservation[] = [];
    for (const boundary of boundaries) {
      const window = { start_at: boundary, end_at: boundary + BOUNDARY_TOLERANCE_MS, page_size: WINDOW_PAGE_SIZE };
      observations.push(...(await readObservations(io, market, window, true)));
    }
    const ends = new Set(boundaries.slice(0, -1));
    const settlements = aggregateObservations(observations).filter((settlement) => ends.has(settlement.time));
    const oldest = boundaries[boundaries.length - 1] as number;
    return { settlements, next: oldest < range.since ? null : String(oldest) };
  },
};
