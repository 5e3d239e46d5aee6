import { z } from "zod";
import { VENUE_IDS } from "@/lib/market/types";
import { SIMULATION_MODES, simulationResultSchema } from "./result-schema";

export const MAX_NOTIONAL_USD = 100_000_000;
export const MAX_HOLDING_DAYS = 365;
export const MAX_BPS = 1000;

export const legInput = z.strictObject({
  exchange: z.enum(VENUE_IDS, `Must be one of: ${VENUE_IDS.join(", ")}`).describe("The leg's exchange."),
  symbol: z
    .string()
    .regex(/^[A-Za-z0-9]{1,20}$/, "Must be a base asset such as BTC")
    .transform((s) => s.toUpperCase())
    .describe("Base asset, e.g. BTC (case-insensitive)."),
});

const bps = (what: string) =>
  z
    .number("Must be a number")
    .min(0, "Must be at least 0")
    .max(MAX_BPS, `Must be at most ${MAX_BPS}`)
    .optional()
    .describe(what);

/**
 * One of two ways to name a position's legs (simulations and portfolio positions alike): an
 * `opportunity_id`, or a `long` and a `short` on different exchanges trading the same asset.
 */
export function checkLegs(
  input: { opportunity_id?: string; long?: { exchange: string; symbol: string }; short?: { exchange: string; symbol: string } },
  ctx: z.RefinementCtx,
) {
  const explicit = input.long !== undefined || input.short !== undefined;
  if (input.opportunity_id !== undefined && explicit) {
    ctx.addIssue({ code: "custom", path: ["opportunity_id"], message: "Give either opportunity_id or long and short, not both" });
  } else if (input.opportunity_id === undefined) {
    if (!input.long) ctx.addIssue({ code: "custom", path: ["long"], message: "Required unless opportunity_id is given" });
    if (!input.short) ctx.addIssue({ code: "custom", path: ["short"], message: "Required unless opportunity_id is given" });
    if (input.long && input.short) {
      if (input.long.exchange === input.short.exchange) {
        ctx.addIssue({ code: "custom", path: ["short", "exchange"], message: "The legs must be on different exchanges" });
      }
      if (input.long.symbol !== input.short.symbol) {
        ctx.addIssue({ code: "custom", path: ["short", "symbol"], message: "Both legs must trade the same asset" });
      }
    }
  }
}

/** What a simulation and a portfolio position are about: an opportunity or two explicit legs, and the size. */
export const tradeTargetFields = {
  opportunity_id: z
    .string("Must be a string")
    .min(1, "Must not be empty")
    .max(100, "Must be at most 100 characters")
    .optional()
    .describe("An opportunity's `id` as GET /v1/opportunities lists it; or give `long` and `short` instead."),
  long: legInput.optional().describe("The long leg, when no `opportunity_id` is given."),
  short: legInput.optional().describe("The short leg, when no `opportunity_id` is given."),
  notional_usd: z
    .number("Must be a number")
    .min(1, "Must be at least 1")
    .max(MAX_NOTIONAL_USD, `Must be at most ${MAX_NOTIONAL_USD}`)
    .describe("Notional of each leg in US dollars."),
};

/** The body of POST /v1/simulations. */
export const simulationInputSchema = z
  .strictObject({
    ...tradeTargetFields,
    holding_days: z
      .number("Must be a number")
      .int("Must be a whole number")
      .min(1, "Must be at least 1")
      .max(MAX_HOLDING_DAYS, `Must be at most ${MAX_HOLDING_DAYS}`)
      .describe("Days the position is held (projected) or replayed back from now (historical)."),
    fee_bps: bps("Taker fee per fill in basis points, replacing both venues' fees."),
    slippage_bps: bps("Slippage per fill in basis points; default 0."),
    mode: z
      .enum(SIMULATION_MODES, `Must be one of: ${SIMULATION_MODES.join(", ")}`)
      .default("projected")
      .describe("projected: current rates held constant; historical: replay of recorded settlements. Default projected."),
  })
  .superRefine(checkLegs);
export type SimulationInput = z.infer<typeof simulationInputSchema>;

/** A stored simulation as the API serves it: what was asked, then what was computed. */
export const simulationSchema = simulationResultSchema.extend({
  id: z.string(),
  created_at: z.string().describe("ISO 8601 UTC."),
  opportunity_id: z.string().nullable().describe("The opportunity simulated; null when the legs were given explicitly."),
  symbol: z.string().describe("The base asset of both legs."),
  fee_bps: z.number().nullable().describe("The fee override asked for; null when the venues' taker fees applied."),
  slippage_bps: z.number().describe("Slippage per fill in basis points."),
});
export type Simulation = z.infer<typeof simulationSchema>;
