import type { MarginTable, MarginTier } from "@/lib/market/books/margin-table";

/** A position just opened: its side, average entry price (per venue unit), size in venue units and leverage. */
export interface OpenedPosition {
  side: "long" | "short";
  entryPrice: number;
  quantity: number;
  leverage: number;
}

/**
 * The tier whose bounds hold the position at entry: its value (quantity × entry price) for tables
 * in USD, its quantity for tables in venue units (OKX's contracts, made venue units). A floor is
 * inclusive and a cap too, as venues list them (Binance's first bracket is 0–50,000 and its second
 * starts at 50,000). Undefined past the last cap.
 */
export function tierFor(table: Extract<MarginTable, { available: true }>, position: OpenedPosition): MarginTier | undefined {
  const size = table.boundsIn === "quote" ? position.quantity * position.entryPrice : position.quantity;
  return table.tiers.find((tier) => size >= tier.floor && (tier.cap === null || size <= tier.cap));
}

/**
 * The mark price at which an isolated position is liquidated: where its margin (the initial
 * margin, value / leverage, plus the mark-to-market P&L) falls to the maintenance margin of its
 * tier (value at that price × rate − the tier's deduction). With Q the quantity, P the entry price,
 * L the leverage, m the rate and d the deduction:
 *
 *   long:  Q·P/L + Q·(X − P) = Q·X·m − d  →  X = (P·(1 − 1/L) − d/Q) / (1 − m)
 *   short: Q·P/L − Q·(X − P) = Q·X·m − d  →  X = (P·(1 + 1/L) + d/Q) / (1 + m)
 *
 * as Binance's isolated-margin formula has it for one position (fees, funding paid in the meantime
 * and any other balance left out). Null for a long whose X is not above zero: the price cannot
 * fall far enough to liquidate it.
 */
export function liquidationPrice(position: OpenedPosition, tier: MarginTier): number | null {
  const { entryPrice: p, quantity: q, leverage: l } = position;
  const m = tier.maintenanceMarginRate;
  const d = tier.maintenanceAmount;
  if (position.side === "long") {
    const price = (p * (1 - 1 / l) - d / q) / (1 - m);
    return price > 0 ? price : null;
  }
  return (p * (1 + 1 / l) + d / q) / (1 + m);
}
