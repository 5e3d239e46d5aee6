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
  settlements: z.number().int().nonnegative().describe("Funding settlements counted over the holding period; for a carry's borrowed spot, the hours of borrow interest charged."),
  funding_income_usd: usd.describe("Funding the leg earned (negative when it paid): short +rate × notional, long −rate × notional, per settlement."),
});

export const dailyPointSchema = z.object({
  date: z.iso.datetime().describe("ISO 8601 UTC end of the day."),
  funding_income_usd: usd.describe("Funding earned from the start to the end of this day, both legs."),
  net_pnl_usd: usd.describe("Cumulative P&L: funding so far minus opening costs, and closing costs on the last day."),
});

export const COST_MODELS = ["fixed", "order_books"] as const;

const legAtEntrySchema = z.object({
  price: z.number().positive().nullable().describe("The leg's liquidation price at entry (the quote's `liquidation.price`); null when it cannot be worked out."),
  distance_pct: z.number().nullable().describe("How far that is from the leg's mid, in percent."),
  unavailable_reason: z.string().nullable().describe("Why `price` is null, as the quote's `liquidation.unavailable_reason` says; null when given."),
  entry_slippage_bps: z.number().nullable().describe("The entry fill's slippage against the mid, in basis points."),
});

/** The order-book quote a simulation with `costs: order_books` was costed from. */
export const liquidationAtEntrySchema = z.object({
  quoted_at: z.iso.datetime().describe("When the books were read, ISO 8601 UTC."),
  leverage: z.number().describe("Leverage of each leg, isolated margin."),
  cost_bps: z.number().nullable().describe("Entry and exit cost in basis points of the notional."),
  long: legAtEntrySchema,
  short: legAtEntrySchema,
});
export type LiquidationAtEntry = z.infer<typeof liquidationAtEntrySchema>;

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
  costs: z
    .enum(COST_MODELS)
    .describe("`fixed`: each venue's taker fee (or `fee_bps`) and `slippage_bps` on the notional; `order_books`: the fees and slippage of a quote at the notional, from both legs' books."),
  entry_quote: liquidationAtEntrySchema
    .nullable()
    .describe("`order_books` runs: the quote the costs come from, with each leg's liquidation at entry; null for `fixed` runs."),
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
