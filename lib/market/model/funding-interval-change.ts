import { z } from "zod";
import { intervalSourceSchema, type IntervalSource } from "./types";

/** One change of a market's funding interval, as stored in FundingIntervalChange. */
export interface IntervalChangeRow {
  exchange: string;
  market: string;
  base: string;
  /** When the first interval of the new length began (lib/market/ingest/detect-interval-changes.ts). */
  effectiveAt: Date;
  fromHours: number;
  toHours: number;
  /** Where the new interval was read from: stated by the venue (`venue`, `venue-default`) or derived. */
  source: IntervalSource;
  /** The observation that revealed the change. */
  detectedAt: Date;
}

/** One change of a market's funding interval as the API serves it (GET /v1/funding-intervals). */
export const fundingIntervalChangeSchema = z.object({
  exchange: z.string(),
  market: z.string().describe("ccxt unified symbol of the market, e.g. BTC/USDT:USDT."),
  symbol: z.string().describe("Base asset."),
  effective_at: z.iso
    .datetime()
    .describe(
      "ISO 8601 UTC when the first interval of the new length began: the running interval's start as the venue's schedule " +
        "showed it when the change was seen, never before the last observation that still showed the old length.",
    ),
  from_hours: z.number().positive().describe("The interval before the change, in hours."),
  to_hours: z.number().positive().describe("The interval from `effective_at` on, in hours."),
  source: intervalSourceSchema.describe(
    "Where the new interval was read from. Stated by the venue: `venue` (a field of its payload) or `venue-default` (its " +
      "documented default, for a market its interval table leaves out). Derived: `schedule` (from settlement times), " +
      "`interest-rate` (from Binance's per-interval interest component), `protocol` (a protocol rule: Hyperliquid settles hourly) " +
      "or `history` (from consecutive settlement times in the venue's funding history, read back by a backfill).",
  ),
  detected_at: z.iso.datetime().describe("ISO 8601 UTC of the observation that revealed the change."),
});
export type FundingIntervalChange = z.infer<typeof fundingIntervalChangeSchema>;

/** A change as ingestion detects and stores it (a FundingIntervalChange row, `source` as text). */
export interface IntervalChangeRecord extends Omit<IntervalChangeRow, "source"> {
  source: string;
}

/** A stored FundingIntervalChange row (its `source` read back as text) as the API serves it. */
export function toFundingIntervalChange(row: IntervalChangeRecord): FundingIntervalChange {
  return {
    exchange: row.exchange,
    market: row.market,
    symbol: row.base,
    effective_at: row.effectiveAt.toISOString(),
    from_hours: row.fromHours,
    to_hours: row.toHours,
    source: intervalSourceSchema.parse(row.source),
    detected_at: row.detectedAt.toISOString(),
  };
}
