import { z } from "zod";
import { SETTLEMENT_SOURCES } from "@/lib/market/model/funding-settlement";
import { MAX_GAPS, type SeriesCoverage, venueHistoryLimits } from "./settlement-coverage";
import type { VenueHistoryLimits } from "../history-types";

const iso = () => z.iso.datetime();

export const sourceCoverageSchema = z.object({
  source: z.enum(SETTLEMENT_SOURCES).describe("How these settlements were learnt: `observed` by the live rounds, `backfill` read back from the venue's history, `sample` the offline sample's recorded history (until the venue's real data arrives), `sandbox` generated for test keys."),
  first_settlement: iso().describe("ISO 8601 UTC of the source's oldest settlement."),
  last_settlement: iso().describe("ISO 8601 UTC of the source's newest settlement."),
  settlements: z.number().int().nonnegative(),
});

export const seriesCoverageSchema = z.object({
  exchange: z.string(),
  market: z.string().describe("The unified market, e.g. BTC/USDT:USDT."),
  symbol: z.string(),
  first_settlement: iso().describe("ISO 8601 UTC of the oldest stored settlement."),
  last_settlement: iso().describe("ISO 8601 UTC of the newest stored settlement."),
  settlements: z.number().int().positive(),
  typical_interval_hours: z.number().positive().nullable().describe("The spacing most settlements follow; null with a single settlement."),
  sources: z.array(sourceCoverageSchema).describe("Per source, by its first settlement."),
  gaps: z
    .array(z.object({ from: iso().describe("The settlement before the gap."), to: iso().describe("The settlement after it.") }))
    .describe(`Consecutive settlements further apart than the later one's interval allows by half an interval or more, oldest first, at most ${MAX_GAPS}.`),
  gaps_total: z.number().int().nonnegative().describe("Every gap, listed or not."),
});

export const venueHistoryLimitsSchema = z
  .object({
    page_size: z.number().int().positive().describe("Most rows one request to the venue's history returns."),
    max_depth_days: z.number().positive().nullable().describe("How far back the venue serves, in days; null when it states no bound."),
    pagination: z.enum(["forward-by-time", "backward-by-time", "page-number", "cursor", "single-page"]),
    requests_per_second: z.number().positive(),
    source: z.string().describe("Where these figures come from."),
  })
  .nullable()
  .describe("The venue's own funding-history limits; null when the service reads no history from it.");

export const settlementCoverageSchema = z.object({
  exchange: z.string(),
  symbol: z.string(),
  venue_history: venueHistoryLimitsSchema,
  series: z.array(seriesCoverageSchema).describe("One per market of the asset on the exchange with stored settlements, by market."),
});
export type SettlementCoverageAnswer = z.infer<typeof settlementCoverageSchema>;

const isoOf = (ms: number) => new Date(ms).toISOString();

/** The answer of GET /v1/funding-rates/coverage from the computed coverage. */
export function settlementCoverageAnswer(
  exchange: string,
  symbol: string,
  series: readonly SeriesCoverage[],
  limits: VenueHistoryLimits | undefined,
): SettlementCoverageAnswer {
  return {
    exchange,
    symbol,
    venue_history: venueHistoryLimits(limits),
    series: series.map((s) => ({
      exchange,
      market: s.market,
      symbol,
      first_settlement: isoOf(s.first),
      last_settlement: isoOf(s.last),
      settlements: s.settlements,
      typical_interval_hours: s.typicalIntervalHours,
      sources: s.sources.map((span) => ({
        // Stored sources are the shared vocabulary; anything else is reported as what the live rounds saw.
        source: (SETTLEMENT_SOURCES as readonly string[]).includes(span.source) ? (span.source as (typeof SETTLEMENT_SOURCES)[number]) : "observed",
        first_settlement: isoOf(span.first),
        last_settlement: isoOf(span.last),
        settlements: span.settlements,
      })),
      gaps: s.gaps.map(([from, to]) => ({ from: isoOf(from), to: isoOf(to) })),
      gaps_total: s.gapsTotal,
    })),
  };
}
