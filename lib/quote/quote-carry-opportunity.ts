import { statedFee } from "@/lib/fees/quote-fee";
import type { CarryOpportunity } from "@/lib/market/carry/carry-opportunity";
import type { BorrowRate } from "@/lib/market/carry/spot-leg";
import type { Market } from "@/lib/market/market";
import { quoteCarry } from "./carry-quote";
import type { CarryQuoteFigures } from "./carry-quote-schema";
import { assertLeverageAllowed, fundingScheduleOf } from "./quote-opportunity";
import type { QuoteQuery } from "./quote-schema";

/** What a carry quote reads of the market: both legs' books, the perpetual's tiers and stated fee, the quote's moment. */
export type CarryQuoteMarket = Pick<Market, "orderBook" | "spotOrderBook" | "marginTable" | "quoteTime" | "takerFee">;

/**
 * Prices one carry opportunity of the set at the query's size, holding period and leverage
 * (carry-quote.ts says how): the spot and the perpetual book read now, at once, the perpetual's
 * tiers and stated taker fee beside them. The spot leg's fee is the one the item states, and a
 * `perp_spot`'s borrow is the item's `borrow_apr` (simple, per year) with its `borrowable` cap, so
 * the quote prices what the set ranked. As the perp quote: a venue that does not send a book in
 * time is 503 VENUE_UNAVAILABLE naming it, and a leverage above what the perpetual's venue allows
 * at the filled size is a 400 on `leverage`.
 */
export async function quoteCarryOpportunity(
  market: CarryQuoteMarket,
  item: CarryOpportunity,
  query: QuoteQuery,
  now: Date,
): Promise<{ figures: CarryQuoteFigures; at: Date }> {
  const at = market.quoteTime(now);
  const spotRef = { exchange: item.spot.exchange, market: item.spot.market };
  const perpRef = { exchange: item.perp.exchange, market: item.perp.market };
  // Both books at once, the tiers and the fee beside them: the slower venue sets the wait.
  const [spotBook, perpBook, margin, stated] = await Promise.all([
    market.spotOrderBook(spotRef),
    market.orderBook(perpRef),
    market.marginTable(perpRef),
    market.takerFee(perpRef, at),
  ]);
  const figures = quoteCarry({
    type: item.type,
    notionalUsd: query.notional,
    holdHours: query.hold_hours,
    leverage: query.leverage,
    at: at.getTime(),
    spot: {
      leg: { exchange: item.spot.exchange, market: item.spot.market, base: item.symbol, takerFee: item.spot.taker_fee, borrow: borrowOf(item) },
      book: spotBook,
    },
    perp: { ...perpRef, book: perpBook, fee: statedFee(stated), funding: fundingScheduleOf(item.perp), margin },
  });
  assertLeverageAllowed([figures.perp], query.leverage);
  return { figures, at };
}

/** The item's borrow as carry-quote.ts reads it: its annual rate as a decimal per year, for `perp_spot` only. */
function borrowOf(item: CarryOpportunity): BorrowRate | null {
  if (item.type !== "perp_spot" || item.borrow_apr === null) return null;
  return {
    asset: item.symbol,
    rate: item.borrow_apr / 100,
    period: "year",
    borrowable: item.borrowable,
    source: "carry opportunity",
    observedAt: item.spot.observed_at,
  };
}
