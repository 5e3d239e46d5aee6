import type { QuoteFigures, QuoteLeg } from "@/lib/quote/quote-schema";
import type { LiquidationAtEntry } from "./result-schema";
import type { TradeCosts } from "./trade-costs";

/**
 * A quote's entry and exit as a simulation's four fills: the fees each leg's fills were charged
 * and the slippage walked from both books, in place of a flat fee and `slippage_bps`. The quote is
 * of the simulation's whole notional (a thin book is refused before this), so its costs are the
 * simulation's.
 */
export function quoteTradeCosts(figures: QuoteFigures): TradeCosts {
  return {
    longTakerFee: figures.long.taker_fee,
    shortTakerFee: figures.short.taker_fee,
    openUsd: figures.entry_cost_usd,
    closeUsd: figures.exit_cost_usd,
    feesUsd: figures.long.fees_usd + figures.short.fees_usd,
    slippageUsd: figures.long.slippage_usd + figures.short.slippage_usd,
  };
}

/** What a simulation reports of the quote it was costed from: when, at which leverage, and each leg's liquidation at entry. */
export function liquidationAtEntry(figures: QuoteFigures, quotedAt: Date): LiquidationAtEntry {
  const leg = (l: QuoteLeg) => ({
    price: l.liquidation.price,
    distance_pct: l.liquidation.distance_pct,
    unavailable_reason: l.liquidation.unavailable_reason,
    entry_slippage_bps: l.entry.slippage_bps,
  });
  return {
    quoted_at: quotedAt.toISOString(),
    leverage: figures.leverage,
    cost_bps: figures.cost_bps,
    long: leg(figures.long),
    short: leg(figures.short),
  };
}
