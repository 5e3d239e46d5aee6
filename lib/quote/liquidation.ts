import type { MarginTable, MarginTier } from "@/lib/market/books/margin-table";

/** A position just opened: its side, average entry price (per venue unit), size in venue units and leverage. */
export interface OpenedPosition {
  side: "long" | "short";
  entryPrice: number;
  quantity: number;
  leverage: number;
}

type TierTable = Extract<MarginTable, { available: true }>;

/**
 * The tier holding a position of `size` in the table's unit (USD value for tables in USD, venue
 * units for OKX's contracts). Tiers are contiguous: each covers (the previous cap, its cap], the
 * first from 0, whatever floor a venue lists, so a size between one tier's cap and the next one's
 * listed floor (OKX: 1,000 and 1,001 contracts) is the next tier's. Binance's first bracket
 * (0–50,000) holds 50,000 itself. Undefined past the last cap.
 */
export function tierOfSize(table: TierTable, size: number): MarginTier | undefined {
  return table.tiers.find((tier) => tier.cap === null || size <= tier.cap);
}

/** The tier of the position at entry: its value (quantity × entry price) or its quantity, as the table bounds it. */
export function tierFor(table: TierTable, position: OpenedPosition): MarginTier | undefined {
  return tierOfSize(table, table.boundsIn === "quote" ? position.quantity * position.entryPrice : position.quantity);
}

/**
 * The mark price at which an isolated position is liquidated when the venue takes the maintenance
 * margin on the position's value at the mark price: where its margin (the initial margin, value /
 * leverage, plus the mark-to-market P&L) falls to value at that price × rate − the tier's
 * deduction. With Q the quantity, P the entry price, L the leverage, m the rate and d the deduction:
 *
 *   long:  Q·P/L + Q·(X − P) = Q·X·m − d  →  X = (P·(1 − 1/L) − d/Q) / (1 − m)
 *   short: Q·P/L − Q·(X − P) = Q·X·m − d  →  X = (P·(1 + 1/L) + d/Q) / (1 + m)
 *
 * Binance's isolated-margin formula for one position (fees, funding paid in the meantime and any
 * other balance left out). Null for a long whose X is not above zero: the price cannot fall far
 * enough to liquidate it.
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

/** A liquidation price and the tier it was worked out in. */
export interface Liquidation {
  /** Null for a long that the price cannot fall far enough to liquidate. */
  price: number | null;
  tier: MarginTier;
}

/**
 * Binance's liquidation price ("How to Calculate Liquidation Price of USDⓈ-M Futures Contracts",
 * https://www.binance.com/en/support/faq/b3c689c1f50a44cabb3a84e663b81d93): liquidationPrice's
 * formula, with the maintenance margin rate and amount of the bracket holding the position's
 * notional AT THE LIQUIDATION PRICE, not at entry ("if your position calculated at the liquidation
 * price and the current position calculated at the opening price are of different levels, you must
 * substitute the maintenance margin rate and amount of the position level at the liquidation price
 * and recalculate"). A long's notional falls on the way to its liquidation, a short's rises, so the
 * bracket can differ from the entry's. Each tier is tried, lowest first, and the first whose bounds
 * hold Q·X at its own X is the answer (with ladder deductions the margin is continuous in the
 * notional, so there is one). OKX, Gate, Hyperliquid and dYdX take the maintenance margin on the
 * value at the mark price too. For tables bounded in venue units the size does not move with the
 * price: the entry tier. Undefined when no tier holds the position at its liquidation price (past
 * the last cap).
 */
export function liquidationAtMarkValue(table: TierTable, position: OpenedPosition): Liquidation | undefined {
  if (table.boundsIn === "base") {
    const tier = tierFor(table, position);
    return tier && { price: liquidationPrice(position, tier), tier };
  }
  let floor = 0;
  for (const tier of table.tiers) {
    const price = liquidationPrice(position, tier);
    // A long that cannot be liquidated would be at a notional of 0 or less: the first tier's.
    const notional = position.quantity * (price ?? 0);
    const inTier = (floor === 0 ? notional >= 0 : notional > floor) && (tier.cap === null || notional <= tier.cap);
    if (inTier) return { price, tier };
    floor = tier.cap ?? Infinity;
  }
  return undefined;
}

/**
 * Bybit's liquidation price for USDT contracts in isolated margin ("Liquidation Price (USDT
 * Contract)", https://www.bybit.com/en/help-center/article/Liquidation-Price-USDT-Contract):
 *
 *   long  = entry price − (initial margin − maintenance margin) / position size
 *   short = entry price + (initial margin − maintenance margin) / position size
 *
 * with position value = size × ENTRY price, initial margin = value / leverage and maintenance
 * margin = value × MMR − mm deduction, the MMR and deduction of the risk-limit tier of the value at
 * entry (its example: 1 BTC long at 20,000 at 50x, MMR 0.5 %: 20,000 − (400 − 100) = 19,700).
 * With Q, P, L, m and d as above: long X = P·(1 − 1/L + m) − d/Q, short X = P·(1 + 1/L − m) + d/Q.
 * Undefined past the last tier; a null price for a long not above zero.
 */
export function liquidationAtEntryValue(table: TierTable, position: OpenedPosition): Liquidation | undefined {
  const tier = tierFor(table, position);
  if (!tier) return undefined;
  const { entryPrice: p, quantity: q, leverage: l } = position;
  const m = tier.maintenanceMarginRate;
  const d = tier.maintenanceAmount;
  if (position.side === "long") {
    const price = p * (1 - 1 / l + m) - d / q;
    return { price: price > 0 ? price : null, tier };
  }
  return { price: p * (1 + 1 / l - m) + d / q, tier };
}

/** The position's liquidation by its venue's rule (the table's `maintenanceOn`). */
export function liquidationOf(table: TierTable, position: OpenedPosition): Liquidation | undefined {
  return table.maintenanceOn === "entry" ? liquidationAtEntryValue(table, position) : liquidationAtMarkValue(table, position);
}
