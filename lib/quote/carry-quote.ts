import { AppError } from "@/lib/errors";
import { spotTakerFee } from "@/lib/market/carry/carry-apr";
import type { CarryType } from "@/lib/market/carry/carry-opportunity";
import { annualisedBorrowPct, type SpotLeg } from "@/lib/market/carry/spot-leg";
import { midPrice, type OrderBook } from "@/lib/market/books/order-book";
import { HOURS_PER_YEAR } from "@/lib/market/model/apr";
import { roundTo } from "@/lib/round";
import type { CarryQuoteFigures } from "./carry-quote-schema";
import { fillableUsd, priceFill, priceLeg, roundUsd, significant, type QuoteLegInput } from "./price-quote";
import { walkLevels } from "./walk-book";

const HOUR_MS = 3_600_000;

export interface CarryQuoteInput {
  type: CarryType;
  /** USD per leg. */
  notionalUsd: number;
  holdHours: number;
  /** The perpetual leg's leverage; the spot leg is unlevered. */
  leverage: number;
  /** Epoch ms the quote is of: the holding period starts then. */
  at: number;
  spot: { leg: Pick<SpotLeg, "exchange" | "market" | "base" | "takerFee" | "borrow">; book: OrderBook };
  /** The perpetual: its side follows from `type` (short for `spot_perp`, long for `perp_spot`). */
  perp: Omit<QuoteLegInput, "side">;
}

/**
 * Prices a carry trade entered now, held `holdHours` and left, at `notionalUsd` a leg, with
 * price-quote.ts' arithmetic for the perpetual and the same walk for the spot book:
 *
 * - `spot_perp` buys spot from its asks and shorts the perpetual into its bids; the short earns
 *   the perpetual's funding. Nothing is borrowed.
 * - `perp_spot` borrows the base and sells it into the spot bids, and longs the perpetual from its
 *   asks; the long pays the funding (negative funding is income) and the borrowed quantity costs
 *   the borrow rate, simple, for the holding period. A spot leg without a borrow rate cannot be
 *   sold short: a 400 VALIDATION_ERROR.
 * - Size. Each leg holds the notional at its own mid. As in a pair quote, a book too thin for the
 *   four fills sizes both legs down (`thin_book`); so does the venue's `borrowable` base, at the spot
 *   mid (`borrow_capped`): the quote is of what can be done, and says why it is smaller.
 * - The spot fee is the venue's stated spot taker fee, else DEFAULT_TAKER_FEE (carry-apr.ts'
 *   spotTakerFee); the perpetual's is its quote fee. Exit fills are against the same books.
 * - The perpetual's liquidation is a pair leg's (liquidation.ts); spot has none.
 */
export function quoteCarry(input: CarryQuoteInput): CarryQuoteFigures {
  const { type, spot } = input;
  // A rate for another asset (a venue's quote-currency loan) says nothing of borrowing the base.
  const borrow = spot.leg.borrow?.asset === spot.leg.base ? spot.leg.borrow : null;
  if (type === "perp_spot" && borrow === null) {
    throw new AppError(
      "VALIDATION_ERROR",
      `${spot.leg.exchange} states no margin borrow rate for ${spot.leg.base} on ${spot.leg.market}: perp_spot borrows the base and sells it, so it cannot be quoted there`,
    );
  }
  const perpLeg: QuoteLegInput = { ...input.perp, side: type === "spot_perp" ? "short" : "long" };
  const spotMid = midPrice(spot.book);
  const perpMid = midPrice(perpLeg.book);
  const spotFillable = fillableUsd(spot, spotMid);
  const perpFillable = fillableUsd(perpLeg, perpMid);
  const byBooks = Math.min(input.notionalUsd, spotFillable, perpFillable);
  // The venue lends at most `borrowable` of the base: at the spot mid, a cap on the notional.
  const borrowCap = type === "perp_spot" && borrow?.borrowable != null && spotMid !== null ? borrow.borrowable * spotMid : Infinity;
  const filled = Math.min(byBooks, borrowCap);

  const to = input.at + input.holdHours * HOUR_MS;
  const perp = priceLeg(perpLeg, perpMid, perpFillable, filled, input, to);

  const feeRate = spotTakerFee(spot.leg);
  const quantity = spotMid === null ? 0 : filled / spotMid;
  const [entrySide, exitSide] = type === "spot_perp" ? (["buy", "sell"] as const) : (["sell", "buy"] as const);
  const levelsOf = (side: "buy" | "sell") => (side === "buy" ? spot.book.asks : spot.book.bids);
  const entry = priceFill(entrySide, walkLevels(levelsOf(entrySide), spot.book.contractSize, quantity), spotMid, feeRate);
  const exit = priceFill(exitSide, walkLevels(levelsOf(exitSide), spot.book.contractSize, quantity), spotMid, feeRate);

  // Interest on the quantity borrowed, valued at the spot mid (the filled notional), for the period.
  const borrowApr = type === "perp_spot" && borrow ? annualisedBorrowPct(borrow.rate, borrow.period) : null;
  const borrowUsd = borrowApr === null ? 0 : filled * (borrowApr / 100) * (input.holdHours / HOURS_PER_YEAR);

  const entryCost = perp.entryCost + entry.fee + entry.slippage;
  const exitCost = perp.exitCost + exit.fee + exit.slippage;
  const cost = entryCost + exitCost;
  const net = perp.fundingUsd - borrowUsd - cost;
  return {
    type,
    notional_usd: input.notionalUsd,
    filled_notional_usd: roundUsd(filled),
    thin_book: byBooks < input.notionalUsd,
    borrow_capped: borrowCap < byBooks,
    hold_hours: input.holdHours,
    leverage: input.leverage,
    spot: {
      exchange: spot.leg.exchange,
      market: spot.leg.market,
      side: type === "spot_perp" ? "long" : "short",
      mid_price: spotMid === null ? null : significant(spotMid),
      fillable_notional_usd: roundUsd(spotFillable),
      entry: entry.view,
      exit: exit.view,
      taker_fee: feeRate,
      taker_fee_source: spot.leg.takerFee === null ? "default" : "venue_base_tier",
      fees_usd: roundUsd(entry.fee + exit.fee),
      slippage_usd: roundUsd(entry.slippage + exit.slippage),
      borrow:
        borrowApr === null || !borrow
          ? null
          : {
              rate: borrow.rate,
              period: borrow.period,
              borrow_apr: roundTo(borrowApr, 6),
              borrowable: borrow.borrowable,
              quantity: significant(quantity),
              borrow_usd: roundUsd(borrowUsd),
            },
      liquidation: null,
      liquidation_unavailable_reason: "spot_not_liquidated",
    },
    perp: perp.view,
    entry_cost_usd: roundUsd(entryCost),
    exit_cost_usd: roundUsd(exitCost),
    cost_usd: roundUsd(cost),
    cost_bps: filled > 0 ? roundTo((cost / filled) * 10_000, 4) : null,
    funding_usd: roundUsd(perp.fundingUsd),
    borrow_usd: roundUsd(borrowUsd),
    net_usd: roundUsd(net),
    net_apr: filled > 0 ? roundTo((net / filled) * (HOURS_PER_YEAR / input.holdHours) * 100, 6) : null,
  };
}
