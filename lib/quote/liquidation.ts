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
 * and recalculate"). OKX, Gate, Hyperliquid and dYdX take the maintenance margin on the value at
 * the mark price too.
 *
 * A long's notional only falls on the way to its liquidation and a short's only rises, so the
 * tiers are walked from the entry tier down (long) or up (short): the first whose bounds hold Q·X at
 * its own X is the answer. With ladder deductions the margin is continuous in the notional and that
 * tier is the only one; where a venue deducts nothing (the rate on the whole position) the margin
 * jumps at a tier's bound, and a position whose margin the jump overtakes is liquidated at that
 * bound. For tables bounded in venue units the size does not move with the price: the entry tier.
 * Undefined past the last cap.
 */
export function liquidationAtMarkValue(table: TierTable, position: OpenedPosition): Liquidation | undefined {
  const entryTier = tierFor(table, position);
  if (!entryTier) return undefined;
  if (table.boundsIn === "base") return { price: liquidationPrice(position, entryTier), tier: entryTier };
  const q = position.quantity;
  const tiers = table.tiers;
  const long = position.side === "long";
  // Tier i holds notionals in (lower(i), cap]: the first from 0 inclusive.
  const lower = (i: number) => (i === 0 ? -Infinity : (tiers[i - 1]!.cap ?? Infinity));
  for (let i = tiers.indexOf(entryTier); i >= 0 && i < tiers.length; i += long ? -1 : 1) {
    const tier = tiers[i]!;
    const price = liquidationPrice(position, tier);
    // A long that cannot be liquidated would be at a notional of 0 or less.
    const notional = q * (price ?? 0);
    const cap = tier.cap ?? Infinity;
    if (notional > lower(i) && notional <= cap) return { price, tier };
    // The margin overtook the position as it entered this tier: at the bound.
    if (long && notional > cap) return { price: cap / q, tier };
    if (!long && notional <= lower(i)) return { price: lower(i) / q, tier };
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
