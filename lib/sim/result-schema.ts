import { z } from "zod";

export const SIMULATION_MODES = ["projected", "historical"] as const;

/** Bounds of a simulation's inputs (lib/sim/simulation-schema.ts), which its stored result echoes. */
export const MAX_NOTIONAL_USD = 100_000_000;
export const MAX_HOLDING_DAYS = 365;
export const MAX_BPS = 1000;
export type SimulationMode = (typeof SIMULATION_MODES)[number];

const usd = z.number().describe("US dollars.");

export const simulationLegResultSchema = z.object({
  exchange: z.string(),
  market: z.string(),
  /** Projected runs: the rate held constant; historical runs: null (the settlements' own rates apply). */
  funding_rate: z.number().nullable().describe("Decimal rate per interval held constant (projected); null for historical runs."),
  funding_interval_hours: z.number().positive().nullable().describe("The venue's funding interval; null when history did not say."),
  taker_fee: z.number().nonnegative().describe("Decimal fee charged on each of this leg's two fills."),
  settlements: z.number().int().nonnegative().describe("Funding settlements counted over the holding period."),
  funding_income_usd: usd.describe("Funding the leg earned (negative when it paid): short +rate × notional, long −rate × notional, per settlement."),
});

export const dailyPointSchema = z.object({
  date: z.iso.datetime().describe("ISO 8601 UTC end of the day."),
  funding_income_usd: usd.describe("Funding earned from the start to the end of this day, both legs."),
  net_pnl_usd: usd.describe("Cumulative P&L: funding so far minus opening costs, and closing costs on the last day."),
});

/** What a simulation computes; stored as the simulation's result and served as it is. */
export const simulationResultSchema = z.object({
  mode: z.enum(SIMULATION_MODES),
  notional_usd: z.number().min(1).max(MAX_NOTIONAL_USD).describe("Notional of each leg in US dollars."),
  holding_days: z.number().int().min(1).max(MAX_HOLDING_DAYS),
  long: simulationLegResultSchema,
  short: simulationLegResultSchema,
  funding_income_usd: usd.describe("Both legs' funding income."),
  fees_usd: usd.describe("Taker fees of the four fills: opening and closing both legs."),
  slippage_usd: usd.describe("Slippage on the four fills."),
  net_pnl_usd: usd.describe("Funding income minus fees and slippage."),
  net_apr: z.number().describe("net_pnl_usd / notional_usd × 365 / holding_days × 100, percent per year."),
  break_even_days: z
    .number()
    .nonnegative()
    .nullable()
    .describe("Days of funding that pay back fees and slippage; null when funding never does (within the replay, for historical runs)."),
  from: z.iso.datetime().nullable().describe("Historical runs: ISO 8601 UTC start of the replayed window; null for projected runs."),
  to: z.iso.datetime().nullable().describe("Historical runs: ISO 8601 UTC end of the replayed window; null for projected runs."),
  daily: z.array(dailyPointSchema).nullable().describe("Historical runs: cumulative P&L at the end of each day; null for projected runs."),
  worst_drawdown_usd: z
    .number()
    .nonnegative()
    .nullable()
    .describe("Historical runs: largest fall of cumulative P&L from its running high (starting at 0 before opening); null for projected runs."),
  paid_share: z
    .number()
    .min(0)
    .max(1)
    .nullable()
    .describe("Historical runs: share of both legs' settlements that paid the position; null when there were none or for projected runs."),
});
export type SimulationResult = z.infer<typeof simulationResultSchema>;
export type SimulationLegResult = z.infer<typeof simulationLegResultSchema>;
