import { z } from "zod";
import { BOOK_LEVELS } from "@/lib/market/books/market-depth";
import { DEPTH_SOURCES } from "@/lib/market/books/order-book";
import { MARGIN_UNAVAILABLE_REASONS } from "@/lib/market/books/margin-table";
import { integerParam, numberParam } from "@/lib/query-params";

/**
 * The largest notional a quote prices, per leg: $10M. Books are read a few dozen levels deep
 * (BOOK_LEVELS), and even BTC's deepest venues rarely hold more than that within their top 50
 * levels, so a larger request could only ever be answered "thin", by a book that stops showing
 * depth long before the size; sizes past it are refused rather than quoted from depth no one saw.
 */
export const MAX_QUOTE_NOTIONAL_USD = 10_000_000;
/** The highest leverage any supported venue offers (Binance, Gate and Bitget on BTC); each pair is bounded by its own legs' tiers. */
export const MAX_QUOTE_LEVERAGE = 125;
/** A year: funding further ahead than that is not an estimate of anything. */
export const MAX_HOLD_HOURS = 8_760;
export const DEFAULT_HOLD_HOURS = 72;
/** The slippage bound of `max_notional_within_10bps_usd`. */
export const SLIPPAGE_BOUND_BPS = 10;

export const quoteQuerySchema = z.object({
  notional: z
    .string({ error: (issue) => (issue.input === undefined ? "Required: the size of each leg in USD" : undefined) })
    .pipe(numberParam())
    .pipe(
      z
        .number()
        .gt(0, "Must be more than 0")
        .max(MAX_QUOTE_NOTIONAL_USD, `Must be at most ${MAX_QUOTE_NOTIONAL_USD}: books are read ${BOOK_LEVELS} levels deep, and no more is seen within them`),
    )
    .describe(
      `Size of each leg in USD, more than 0 and at most ${MAX_QUOTE_NOTIONAL_USD.toLocaleString("en-US")} (books are read ${BOOK_LEVELS} levels ` +
        "deep, and even BTC's deepest venues hold no more than that within them, so a larger size could only be answered as thin).",
    ),
  hold_hours: integerParam(1, MAX_HOLD_HOURS)
    .default(DEFAULT_HOLD_HOURS)
    .describe(`Hours the position is held, from now: 1 to ${MAX_HOLD_HOURS} (a year); default ${DEFAULT_HOLD_HOURS}.`),
  leverage: numberParam()
    .pipe(z.number().min(1, "Must be at least 1").max(MAX_QUOTE_LEVERAGE, `Must be at most ${MAX_QUOTE_LEVERAGE}`))
    .default(1)
    .describe(
      `Leverage of each leg (isolated margin), 1 to ${MAX_QUOTE_LEVERAGE}; default 1. A leverage above what a leg's venue allows at ` +
        "this size (its margin tiers) is a 400 VALIDATION_ERROR on `leverage` naming that maximum.",
    ),
});
export type QuoteQuery = z.infer<typeof quoteQuerySchema>;

const usd = z.number();
const price = z.number().positive();

export const fillSchema = z.object({
  side: z.enum(["buy", "sell"]).describe("`buy` walks the asks, `sell` the bids."),
  quantity: z.number().nonnegative().describe("Venue units filled (the coin, or the venue's bundle such as 1000 PEPE): the filled notional at the mid, whole contracts or not."),
  average_price: price.nullable().describe("Average fill price per venue unit, as `mark_price` counts it; null when nothing is filled."),
  slippage_bps: z
    .number()
    .nullable()
    .describe("How much worse than the book's mid the average fill is, in basis points (half the spread included); null when nothing is filled."),
  value_usd: usd.nonnegative().describe("USD paid (buy) or received (sell): quantity × average price."),
  levels: z.number().int().nonnegative().describe("Book levels the fill reached, the last one possibly in part."),
});
export type QuoteFill = z.infer<typeof fillSchema>;

const liquidationSchema = z.object({
  price: price
    .nullable()
    .describe(
      "Mark price per venue unit at which this leg, opened alone at `leverage` on isolated margin, reaches its maintenance margin by the " +
        "venue's own rule: on the position's value at that price, in the tier holding it there (Binance's formula; OKX, Gate, Hyperliquid, " +
        "dYdX), or on its value at entry, in the entry tier (Bybit's). Fees and funding paid meanwhile are left out. null when it cannot be " +
        "worked out (`unavailable_reason`).",
    ),
  distance_pct: z.number().nullable().describe("How far the liquidation price is from the book's mid, in percent of the mid."),
  maintenance_margin_rate: z.number().nullable().describe("The maintenance rate of the tier the liquidation price is worked out in (decimal)."),
  max_leverage: z
    .number()
    .nullable()
    .describe(
      "The venue's highest leverage for a position of this size at entry (its tier's), or, where the venue's tiers are not known, the " +
        "market's maximum leverage from its market list; null where it states neither.",
    ),
  source: z
    .enum(["leverage_tiers", "market_limits"])
    .nullable()
    .describe(
      "What the margin comes from: the venue's tier table (Hyperliquid's margin table, dYdX's margin fractions included), or its maximum " +
        "leverage alone (a Hyperliquid asset without a table: maintenance is half the initial margin at maximum leverage).",
    ),
  unavailable_reason: z
    .enum([...MARGIN_UNAVAILABLE_REASONS, "above_largest_tier", "not_reachable", "no_book"])
    .nullable()
    .describe(
      "Why `price` is null: `not_published` (the venue gives its tiers only to signed account requests, as Binance does), `not_recorded` (the " +
        "offline sample has no recording of them), `venue_unavailable` (the venue did not answer in time), `above_largest_tier` (the position " +
        "is larger than the venue's tiers go), `not_reachable` (a long at this leverage is not liquidated before the price reaches zero), `no_book` (the book has " +
        "no bid or no ask to price the position from); null when `price` is given.",
    ),
});

const legFundingSchema = z.object({
  funding_rate: z.number().describe("The leg's current rate (decimal per interval), paid at its next settlement."),
  predicted_funding_rate: z.number().nullable().describe("The venue's forecast, paid at each later settlement; null where it publishes none (the current rate is held)."),
  interval_hours: z.number().positive(),
  settlements: z.number().int().nonnegative().describe("Settlements within the holding period."),
  first_settlement_at: z.iso.datetime().nullable().describe("The first of them, ISO 8601 UTC; null when there is none."),
  schedule_assumed: z
    .boolean()
    .describe("True when the venue stated no next settlement time, so settlements are taken at the UTC multiples of the interval."),
  funding_usd: usd.describe("What the leg earns over the period on the filled notional: + rate × notional a settlement short, − long."),
});

export const quoteLegSchema = z.object({
  exchange: z.string(),
  market: z.string(),
  side: z.enum(["long", "short"]).describe("The long leg is bought at entry and sold at exit, the short leg the reverse."),
  depth_timestamp: z.iso.datetime().describe("When the venue produced the book walked (its own time where it sends one), ISO 8601 UTC."),
  depth_source: z
    .enum(DEPTH_SOURCES)
    .describe("`venue` (read from the venue for this quote, or a few seconds earlier), `recording` (the offline sample's recorded book) or `sandbox`."),
  mid_price: price.nullable().describe("Midpoint of the best bid and ask, per venue unit; null when a side is empty."),
  contract_size: z.number().positive().describe("Venue units one unit of the book's amounts is: OKX and Gate count contracts (0.01 and 0.0001 BTC)."),
  fillable_notional_usd: usd
    .nonnegative()
    .describe("The most this leg can be entered and exited at against the book read (the smaller side's depth at the mid)."),
  entry: fillSchema,
  exit: fillSchema.describe("Closing the position against the same book, now: what exiting would cost if the book stayed as it is."),
  taker_fee: z.number().nonnegative().describe("Decimal taker fee charged on each fill."),
  taker_fee_source: z
    .enum(["account", "venue_base_tier", "default"])
    .describe("`account`: your own fee on the venue (PATCH /v1/account/fees); `venue_base_tier`: the venue's base-tier fee as last ingested; `default`: the venue stated none, so 0.06 %, the highest base tier among the venues."),
  fees_usd: usd.nonnegative().describe("Taker fees of the entry and the exit fill."),
  slippage_usd: usd.describe("What the entry and exit fills cost against the mid."),
  funding: legFundingSchema,
  max_notional_within_10bps_usd: usd
    .nonnegative()
    .describe("The largest notional whose entry and exit both fill within 10 bps of the mid, per the book read."),
  max_notional_limited_by_depth: z
    .boolean()
    .describe("True when even the whole book read stays within 10 bps, so the true limit lies beyond the levels the venue showed."),
  liquidation: liquidationSchema,
});
export type QuoteLeg = z.infer<typeof quoteLegSchema>;

/** The figures of a quote (lib/quote/price-quote.ts), all at the filled notional. */
export const quoteFiguresSchema = z.object({
  notional_usd: usd.positive().describe("The notional asked for, per leg."),
  filled_notional_usd: usd
    .nonnegative()
    .describe("The notional both legs can be entered and exited at, per leg: `notional_usd` unless a book is too thin. Every other figure is at this size."),
  thin_book: z.boolean().describe("True when a leg's book could not fill `notional_usd`: the quote is of what could be filled."),
  hold_hours: z.number().int().positive(),
  leverage: z.number(),
  long: quoteLegSchema,
  short: quoteLegSchema,
  entry_cost_usd: usd.describe("Fees and slippage of opening both legs."),
  exit_cost_usd: usd.describe("Fees and slippage of closing both legs against the same books."),
  cost_usd: usd.describe("Entry plus exit cost."),
  cost_bps: z.number().nullable().describe("`cost_usd` in basis points of the filled notional; null when nothing is filled."),
  funding_usd: usd.describe("Both legs' expected funding over `hold_hours`."),
  net_usd: usd.describe("`funding_usd` − `cost_usd`."),
  net_apr: z.number().nullable().describe("`net_usd` / filled notional × 8760 / `hold_hours` × 100, percent per year; null when nothing is filled."),
  breakeven_hours: z
    .number()
    .nullable()
    .describe("Hours from now until the expected funding, settlement by settlement, has paid `cost_usd`; null when it does not within a year."),
  max_notional_within_10bps_usd: usd.nonnegative().describe("The smaller of the legs' `max_notional_within_10bps_usd`: the largest size whose four fills all stay within 10 bps."),
});
export type QuoteFigures = z.infer<typeof quoteFiguresSchema>;

export const quoteSchema = z
  .object({
    opportunity_id: z.string(),
    symbol: z.string(),
    quoted_at: z.iso.datetime().describe("The moment the quote is of, ISO 8601 UTC: the holding period starts then (for test keys, the sandbox minute's start)."),
  })
  .extend(quoteFiguresSchema.shape);
export type Quote = z.infer<typeof quoteSchema>;
