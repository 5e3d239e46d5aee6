import { z } from "zod";
import { VENUE_IDS } from "@/lib/market/model/types";
import { maxCharacters } from "@/lib/validation";
import { MAX_QUOTE_LEVERAGE } from "@/lib/quote/quote-schema";
import { COST_MODELS, MAX_BPS, MAX_HOLDING_DAYS, MAX_NOTIONAL_USD, SIMULATION_MODES, simulationResultSchema } from "./result-schema";

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

type LegsInput = { opportunity_id?: string; long?: { exchange: string; symbol: string }; short?: { exchange: string; symbol: string } };

/**
 * One of two ways to name a position's legs (simulations and portfolio positions alike): an
 * `opportunity_id`, or a `long` and a `short` on different exchanges trading the same asset.
 */
export function checkLegs(input: LegsInput, ctx: z.RefinementCtx) {
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

const opportunityId = maxCharacters(z.string("Must be a string").min(1, "Must not be empty"), 100, "Must be at most 100 characters").describe("An opportunity's `id` as GET /v1/opportunities lists it.");

/** What a simulation and a portfolio position are about: an opportunity or two explicit legs, and the size. */
export const tradeTargetFields = {
  opportunity_id: opportunityId.optional().describe("An opportunity's `id` as GET /v1/opportunities lists it; or give `long` and `short` instead."),
  long: legInput.optional().describe("The long leg, when no `opportunity_id` is given."),
  short: legInput.optional().describe("The short leg, when no `opportunity_id` is given."),
  notional_usd: z
    .number("Must be a number")
    .min(1, "Must be at least 1")
    .max(MAX_NOTIONAL_USD, `Must be at most ${MAX_NOTIONAL_USD}`)
    .describe("Notional of each leg in US dollars."),
};

type TradeTargetShape = typeof tradeTargetFields;

/**
 * The two checks of a request body naming its legs one of the two ways (`checkLegs`), with
 * `fields` besides. `alternatives` is the body's shape, a union of two strict objects (an
 * `opportunity_id`, or a `long` and a `short`) which the OpenAPI document states as `oneOf`, so a
 * generated client or a fuzzer never sends both or neither. `fieldByField` accepts the same bodies
 * (lib/sim/simulation-schema.test.ts) but, every trade target field being optional there, names
 * each field at fault, where a union could only say that the body matches neither shape.
 */
export function tradeTargetChecks<Extra extends z.ZodRawShape>(fields: Extra) {
  const { notional_usd } = tradeTargetFields;
  const legs = (body: unknown, ctx: z.RefinementCtx) => checkLegs(body as LegsInput, ctx);
  const fieldByField = z.strictObject({ ...tradeTargetFields, ...fields }).superRefine(legs);
  const byOpportunity = z
    .strictObject({ opportunity_id: opportunityId, notional_usd, ...fields })
    .describe("The legs of a listed opportunity.");
  const byLegs = z
    .strictObject({
      long: legInput.describe("The long leg."),
      short: legInput.describe("The short leg, on another exchange than the long leg's, trading the same asset."),
      notional_usd,
      ...fields,
    })
    .superRefine(legs)
    .describe("Two legs given explicitly: on two different exchanges, trading the same asset.");
  return { fieldByField, alternatives: z.xor([byOpportunity, byLegs]) };
}

/**
 * A request body naming its legs (`tradeTargetChecks`): parsed and documented as its
 * `alternatives`, after `fieldByField` has named whatever is wrong, as 400s always have. Handlers
 * get the field-by-field type, every trade target field optional.
 */
export function tradeTargetBody<Extra extends z.ZodRawShape>(fields: Extra) {
  const { fieldByField, alternatives } = tradeTargetChecks(fields);
  type Body = z.output<z.ZodObject<TradeTargetShape & Extra, z.core.$strict>>;
  return z
    .preprocess((input, ctx) => {
      const checked = fieldByField.safeParse(input);
      if (!checked.success) for (const issue of checked.error.issues) ctx.addIssue({ ...issue });
      return input;
    }, alternatives)
    .transform((body) => body as unknown as Body)
    .meta({ type: "object" });
}

/** The body of POST /v1/simulations. */
export const simulationInputSchema = tradeTargetBody({
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
  costs: z
    .enum(COST_MODELS, `Must be one of: ${COST_MODELS.join(", ")}`)
    .default("fixed")
    .describe(
      "fixed (default): four fills at each venue's taker fee (yours where you set one), or `fee_bps`, plus `slippage_bps`. order_books: " +
        "the entry and exit costs of a quote at `notional_usd` (at most 10,000,000) from both legs' order books read now, as " +
        "GET /v1/opportunities/{id}/quote prices them, and each leg's liquidation at entry in `entry_quote`; `fee_bps` and " +
        "`slippage_bps` do not apply then, and a book too thin for the notional is a 400 naming the most it can fill.",
    ),
  leverage: z
    .number("Must be a number")
    .min(1, "Must be at least 1")
    .max(MAX_QUOTE_LEVERAGE, `Must be at most ${MAX_QUOTE_LEVERAGE}`)
    .optional()
    .describe("With `costs: order_books`: leverage of each leg (isolated margin) for the liquidation at entry; default 1. Bounded by the legs' margin tiers."),
})
  .superRefine((input, ctx) => {
    if (input.costs === "order_books") {
      const not = (field: "fee_bps" | "slippage_bps", why: string) =>
        input[field] !== undefined && ctx.addIssue({ code: "custom", path: [field], message: `Not with costs order_books: ${why}` });
      not("fee_bps", "the quote charges each venue's fee (or yours)");
      not("slippage_bps", "the slippage is walked from the books");
    } else if (input.leverage !== undefined) {
      ctx.addIssue({ code: "custom", path: ["leverage"], message: "Only with costs order_books" });
    }
  })
  // JSON Schema's if/then/else says the same, which zod cannot write: `leverage` only with
  // `costs: order_books`; `fee_bps` and `slippage_bps` only without it.
  .meta({
    type: "object",
    if: { properties: { costs: { const: "order_books" } }, required: ["costs"], additionalProperties: true },
    then: { not: { anyOf: [{ required: ["fee_bps"] }, { required: ["slippage_bps"] }] } },
    else: { not: { required: ["leverage"] } },
  });
export type SimulationInput = z.infer<typeof simulationInputSchema>;

/** A stored simulation as the API serves it: what was asked, then what was computed. */
export const simulationSchema = simulationResultSchema.extend({
  id: z.string(),
  created_at: z.iso.datetime().describe("ISO 8601 UTC."),
  opportunity_id: z.string().nullable().describe("The opportunity simulated; null when the legs were given explicitly."),
  symbol: z.string().describe("The base asset of both legs."),
  fee_bps: z.number().min(0).max(MAX_BPS).nullable().describe("The fee override asked for; null when the venues' taker fees applied."),
  slippage_bps: z.number().min(0).max(MAX_BPS).describe("Slippage per fill in basis points."),
});
export type Simulation = z.infer<typeof simulationSchema>;
