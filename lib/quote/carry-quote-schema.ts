import { z } from "zod";
import { CARRY_TYPES } from "@/lib/market/carry/carry-opportunity";
import { borrowPeriodSchema } from "@/lib/market/carry/spot-leg";
import { fillSchema, quoteLegSchema } from "./quote-schema";

const usd = z.number();

/** What borrowing the sold base costs over the holding period (`perp_spot` only). */
const carryBorrowSchema = z.object({
  rate: z.number().nonnegative().describe("The spot venue's borrow rate for the base, decimal per `period`, as the venue states it."),
  period: borrowPeriodSchema,
  borrow_apr: z.number().nonnegative().describe("The rate as simple percent per year."),
  borrowable: z.number().nonnegative().nullable().describe("How much of the base the venue lends, in asset units; null where it does not say."),
  quantity: z.number().nonnegative().describe("Base borrowed and sold at entry, in asset units: the filled notional at the spot mid."),
  borrow_usd: usd.nonnegative().describe("Interest over `hold_hours` on the quantity borrowed, valued at the spot mid: simple, not compounded."),
});

const carrySpotQuoteLegSchema = z.object({
  exchange: z.string(),
  market: z.string().describe("ccxt's unified spot symbol, e.g. `BTC/USDT`."),
  side: z.enum(["long", "short"]).describe("`long`: bought at entry, sold at exit (`spot_perp`); `short`: borrowed and sold at entry, bought back at exit (`perp_spot`)."),
  mid_price: z.number().positive().nullable().describe("Midpoint of the spot book's best bid and ask; null when a side is empty."),
  fillable_notional_usd: usd.nonnegative().describe("The most the spot leg can be entered and exited at against the book read (the smaller side's depth at the mid)."),
  entry: fillSchema,
  exit: fillSchema,
  taker_fee: z.number().nonnegative(),
  taker_fee_source: z.enum(["venue_base_tier", "default"]).describe("`default`: the venue states no spot fee, so 0.06 % (DEFAULT_TAKER_FEE)."),
  fees_usd: usd.nonnegative(),
  slippage_usd: usd,
  borrow: carryBorrowSchema.nullable().describe("null for `spot_perp`, which borrows nothing."),
  liquidation: z.null().describe("Spot held or sold outright has no liquidation price; see `liquidation_unavailable_reason`."),
  liquidation_unavailable_reason: z.literal("spot_not_liquidated"),
});

/** The figures of a carry quote (lib/quote/carry-quote.ts), all at the filled notional. */
export const carryQuoteFiguresSchema = z.object({
  type: z.enum(CARRY_TYPES),
  notional_usd: usd.positive().describe("The notional asked for, per leg."),
  filled_notional_usd: usd.nonnegative().describe("The notional both legs are priced at: `notional_usd` unless a book is too thin or the borrowable base caps it."),
  thin_book: z.boolean().describe("True when a book could not fill `notional_usd`."),
  borrow_capped: z.boolean().describe("True when the spot venue's `borrowable` base, at the spot mid, is less than the size otherwise filled (`perp_spot`)."),
  hold_hours: z.number().int().positive(),
  leverage: z.number().describe("The perpetual leg's leverage (isolated margin); the spot leg is unlevered."),
  spot: carrySpotQuoteLegSchema,
  perp: quoteLegSchema,
  entry_cost_usd: usd.describe("Fees and slippage of opening both legs."),
  exit_cost_usd: usd.describe("Fees and slippage of closing both legs against the same books."),
  cost_usd: usd,
  cost_bps: z.number().nullable(),
  funding_usd: usd.describe("The perpetual's expected funding over `hold_hours`: earned short, paid long (negative funding reverses it)."),
  borrow_usd: usd.nonnegative().describe("The borrow interest over `hold_hours` (`perp_spot`); 0 for `spot_perp`."),
  net_usd: usd.describe("`funding_usd` − `borrow_usd` − `cost_usd`."),
  net_apr: z.number().nullable().describe("`net_usd` / filled notional × 8760 / `hold_hours` × 100, percent per year; null when nothing is filled."),
});
export type CarryQuoteFigures = z.infer<typeof carryQuoteFiguresSchema>;

/** GET /v1/carry-opportunities/{id}/quote's answer: which carry opportunity, when, and its figures. */
export const carryQuoteSchema = z.object({
  opportunity_id: z.string().describe("The carry opportunity's `id`."),
  symbol: z.string(),
  quoted_at: z.iso.datetime().describe("When the books were read, ISO 8601 UTC."),
  ...carryQuoteFiguresSchema.shape,
});
