import { z } from "zod";
import { priceSpreadUnavailableReasonSchema, PRICE_OBSERVATION_TOLERANCE_MS } from "../model/price-spread";
import { opportunitySchema, persistenceSchema, venueIdSchema } from "../model/types";

/**
 * The two sides of a cash-and-carry trade, named long side first, as an id names its venues:
 * `spot_perp` holds spot and shorts the perpetual (collects positive funding, borrows nothing);
 * `perp_spot` borrows the base, sells it spot and longs the perpetual (collects negative funding,
 * pays the borrow rate).
 */
export const CARRY_TYPES = ["spot_perp", "perp_spot"] as const;
export const carryTypeSchema = z.enum(CARRY_TYPES);
export type CarryType = z.infer<typeof carryTypeSchema>;

const toleranceSeconds = PRICE_OBSERVATION_TOLERANCE_MS / 1000;

/** A spot market as a carry opportunity serves it: the price it is entered at and the fee charged. */
export const carrySpotLegSchema = z.object({
  exchange: venueIdSchema,
  market: z.string().describe("ccxt's unified spot symbol, e.g. `BTC/USDT`."),
  quote: z.string(),
  price: z.number().positive().describe("Last or mid price in the quote currency, per unit of the asset (USDT and USDC as dollars)."),
  volume_24h_usd: z.number().nonnegative().nullable(),
  taker_fee: z
    .number()
    .nonnegative()
    .nullable()
    .describe("The venue's base-tier spot taker fee (decimal); `null` where no schedule is known, and `net_apr` then charges 0.06 %."),
  observed_at: z.iso.datetime().describe("When the spot price was observed, ISO 8601 UTC."),
});
export type CarrySpotLeg = z.infer<typeof carrySpotLegSchema>;

/** One carry opportunity: a spot leg against a perpetual leg of the same asset, on one venue or two. */
export const carryOpportunitySchema = z.object({
  id: z
    .string()
    .describe(
      "`<asset>-<type>-<long venue>-<short venue>`: `BTC-spot_perp-binance-bybit` holds spot on Binance against a short perpetual " +
        "on Bybit, `BTC-perp_spot-bybit-binance` longs Bybit's perpetual against spot borrowed and sold on Binance. Stable across refreshes.",
    ),
  symbol: z.string().describe("The asset, normalised as perp pairs' `symbol` is."),
  type: carryTypeSchema.describe(
    "`spot_perp`: long spot, short perpetual; the short receives the perpetual's funding. `perp_spot`: the base borrowed and sold " +
      "spot, long perpetual; the long pays the funding (negative funding is income) and the borrow rate is paid.",
  ),
  spot: carrySpotLegSchema,
  perp: opportunitySchema.shape.short.describe("The perpetual leg, as perp pairs serve their legs."),
  apr: z
    .number()
    .describe(
      "Gross APR, percent per year: the perpetual's annualised funding (`spot_perp`), or minus it less `borrow_apr` (`perp_spot`).",
    ),
  net_apr: z
    .number()
    .describe("`apr` after the taker fees of opening and closing both legs, spread over the holding period, percent per year."),
  borrow_apr: z
    .number()
    .nonnegative()
    .nullable()
    .describe("The spot venue's borrow rate for the asset as simple percent per year (`perp_spot`); `null` for `spot_perp`, which borrows nothing."),
  borrowable: z
    .number()
    .nonnegative()
    .nullable()
    .describe("How much of the asset the spot venue lends, in asset units: a cap on a `perp_spot` position's size; `null` where unknown and for `spot_perp`."),
  basis_bps: z
    .number()
    .nullable()
    .describe(
      "(perpetual mark per unit − spot price) / spot price, in basis points, at entry: reported beside the APR, not in it. Given only when " +
        `both legs were observed at most ${toleranceSeconds} s apart; otherwise \`null\`, and \`basis_unavailable_reason\` says why.`,
    ),
  basis_unavailable_reason: priceSpreadUnavailableReasonSchema
    .nullable()
    .describe("Why `basis_bps` is `null` (as `price_spread_unavailable_reason` for perp pairs); `null` when it is given."),
  updated_at: z.iso.datetime().describe("The older leg's observation, ISO 8601 UTC."),
  persistence: persistenceSchema.describe(
    "How persistent the carry has been, from the stored hourly history and settlements of the perpetual (a `spot_perp` collects the " +
      "perpetual's funding: the same figures whichever venue holds the spot) and, for a `perp_spot`, the spot venue's borrow rates " +
      "stored hourly beside it: each hour the carry earns minus the funding minus that hour's borrow APR, and an hour without a stored " +
      "rate is missing, as an hour without funding is. Borrow rates are stored from this service's rounds only (no venue serves " +
      "margin borrow history without a key), so a `perp_spot`'s figures stay `null` until enough hours are stored.",
  ),
});
export type CarryOpportunity = z.infer<typeof carryOpportunitySchema>;
