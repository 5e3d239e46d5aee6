import { z } from "zod";
import { annualisedFundingPct } from "./apr";
import { roundTo } from "@/lib/round";

/**
 * Where a stored settlement came from: seen by the live rounds, read back from the venue's history,
 * recorded in the offline sample, or generated for test keys.
 */
export const SETTLEMENT_SOURCES = ["observed", "backfill", "sample", "sandbox"] as const;

/**
 * One funding settlement as the API serves it. `source`: "observed" = the last rate the service
 * saw before the settlement time passed; "backfill" = read back from the venue's funding history;
 * "sample" = the offline sample's recorded history, moved onto its timeline (until the venue's real
 * data arrives); "sandbox" = generated for test keys.
 */
export const fundingSettlementSchema = z.object({
  exchange: z.string(),
  market: z.string(),
  symbol: z.string(),
  /** ISO 8601 UTC of the settlement. */
  time: z.iso.datetime(),
  /** Decimal per interval, as the venue quotes it. */
  funding_rate: z.number(),
  funding_interval_hours: z.number().positive().nullable(),
  /** `funding_rate` annualised, percent per year; `null` when the interval is unknown. */
  apr: z.number().nullable(),
  source: z.enum(SETTLEMENT_SOURCES),
});
export type FundingSettlement = z.infer<typeof fundingSettlementSchema>;

export function toFundingSettlement(row: {
  exchange: string;
  market: string;
  base: string;
  time: Date | number;
  rate: number;
  intervalHours: number | null;
  source: string;
}): FundingSettlement {
  return {
    exchange: row.exchange,
    market: row.market,
    symbol: row.base,
    time: new Date(row.time).toISOString(),
    funding_rate: row.rate,
    funding_interval_hours: row.intervalHours,
    apr:
      row.intervalHours === null
        ? null
        : roundTo(annualisedFundingPct({ rate: row.rate, intervalHours: row.intervalHours }), 6),
    source: (SETTLEMENT_SOURCES as readonly string[]).includes(row.source) ? (row.source as FundingSettlement["source"]) : "observed",
  };
}
