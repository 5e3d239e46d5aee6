import { z } from "zod";
import { HOURS_PER_YEAR } from "../model/apr";
import { venueIdSchema } from "../model/types";

/**
 * The period a venue states a borrow rate for. Venues differ (Binance's next-hourly rate is per
 * hour, OKX's public quota per day, Hyperliquid's per year: fixtures/carry/FACTS.md), so a rate is
 * kept with its period and compared with funding only once annualised.
 */
export const borrowPeriodSchema = z.enum(["hour", "day", "year"]);
export type BorrowPeriod = z.infer<typeof borrowPeriodSchema>;

const PERIODS_PER_YEAR: Record<BorrowPeriod, number> = { hour: HOURS_PER_YEAR, day: HOURS_PER_YEAR / 24, year: 1 };

/** A borrow rate as percent per year, simple (not compounded), as funding's APR is. */
export function annualisedBorrowPct(rate: number, period: BorrowPeriod): number {
  return rate * PERIODS_PER_YEAR[period] * 100;
}

/** What borrowing one asset on a venue's margin costs, as the venue states it. */
export const borrowRateSchema = z.object({
  asset: z.string().min(1).describe("The borrowed asset, normalised as perp bases are (BTC, ETH)."),
  rate: z.number().min(0).describe("Decimal rate per `period`, as the venue states it."),
  period: borrowPeriodSchema,
  borrowable: z.number().min(0).nullable().describe("How much of the asset the venue lends, in asset units, where it says; null where it does not."),
  source: z.string().min(1).describe("The endpoint or ccxt method the rate came from."),
  observedAt: z.iso.datetime(),
});
export type BorrowRate = z.infer<typeof borrowRateSchema>;

/** One spot market of a venue: the leg a carry trade holds (or borrows and sells) against a perp. */
export const spotLegSchema = z.object({
  exchange: venueIdSchema,
  market: z.string().min(1).describe("ccxt's unified spot symbol, e.g. BTC/USDT."),
  base: z.string().min(1),
  quote: z.string().min(1),
  price: z.number().positive().describe("Last or mid price in the quote currency."),
  volume24hUsd: z.number().min(0).nullable(),
  takerFee: z.number().min(0).nullable().describe("The venue's base-tier spot taker fee, decimal; null where no schedule is known."),
  borrow: borrowRateSchema.nullable().describe("The base asset's margin borrow rate; null where the venue has no margin for it."),
  observedAt: z.iso.datetime(),
});
export type SpotLeg = z.infer<typeof spotLegSchema>;
