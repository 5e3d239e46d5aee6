import { nanosecondsToMs } from "../../market/venues/connectors/grvt";
import type { HistorySettlement, VenueHistoryReader } from "../history-types";
import { decimal, rowsAt, unexpectedAnswer } from "./read-fields";

const PAGE_SIZE = 1000;

/** Epoch ms as GRVT's unix nanoseconds, a decimal string (19 digits: past a double's exact range). */
function nanoseconds(ms: number): string {
  return `${Math.trunc(ms)}000000`;
}

function settlement(row: Record<string, unknown>): HistorySettlement {
  const time = nanosecondsToMs(row.funding_time);
  if (time === undefined || !Number.isFinite(time)) throw unexpectedAnswer("grvt", `funding_time is not unix nanoseconds (${JSON.stringify(row.funding_time)})`);
  const interval = row.funding_interval_hours === undefined ? 0 : decimal("grvt", row.funding_interval_hours, "funding_interval_hours");
  return {
    time,
    // Percentage points, as the live ticker's rate: 0.0003 is 0.0003 %. 15 significant digits drop
    // the division's float noise.
    rate: Number((decimal("grvt", row.funding_rate, "funding_rate") / 100).toPrecision(15)),
    // 0 (seen in ccxt's sample) or absent states nothing; the interval is then derived.
    intervalHours: interval > 0 ? interval : null,
  };
}

/**
 * GRVT `POST full/v1/funding`: newest first from `end_time` back to `start_time` (unix nanoseconds
 * as strings), `limit` rows and a `next` cursor sent back as `cursor`. `agg_type`
 * `FUNDING_INTERVAL` asks one row per settlement at the instrument's own interval (the other types
 * sum rates over fixed 1/4/8 h buckets). `funding_rate` is in percentage points and
 * `funding_interval_hours` states the interval.
 */
export const grvtHistory: VenueHistoryReader = {
  exchange: "grvt",
  limits: {
    pageSize: PAGE_SIZE,
    maxDepthDays: null,
    pagination: "cursor",
    // No published figure for market data was reached; ccxt spaces GRVT calls 10 ms apart, and 5 a
    // second stays far inside that.
    requestsPerSecond: 5,
    source: "https://api-docs.grvt.io/market_data_api/#funding-rate; no published rate limit reached (ccxt grvt rateLimit 10 ms)",
  },
  async readPage(io, market, range, cursor) {
    const body = {
      instrument: market.venueMarketId,
      start_time: nanoseconds(range.since),
      end_time: nanoseconds(range.until),
      limit: PAGE_SIZE,
      agg_type: "FUNDING_INTERVAL",
      ...(cursor === null ? {} : { cursor }),
    };
    const answer = await io.postJson("https://market-data.grvt.io/full/v1/funding", body);
    const rows = rowsAt("grvt", answer, ["result"]).filter((row) => row.instrument === market.venueMarketId);
    const settlements = rows.map(settlement);
    const next = (answer as Record<string, unknown>).next;
    const oldest = Math.min(...settlements.map((row) => row.time));
    const more = typeof next === "string" && next !== "" && settlements.length > 0 && oldest > range.since;
    return { settlements, next: more ? next : null };
  },
};
