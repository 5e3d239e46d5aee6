import { withLadderDeductions, type ListedTier, type MarginTable } from "@/lib/market/books/margin-table";

export type AvailableMarginTable = Extract<MarginTable, { available: true }>;

/**
 * A venue's brackets as tests write them out: bounded in quote value, each tier's deduction derived
 * as Binance and Bybit state theirs; `maintenanceOn: "entry"` for a venue that takes maintenance on
 * the value at entry (Bybit).
 */
export function quoteLadder(tiers: readonly ListedTier[], options: { maintenanceOn?: "mark" | "entry" } = {}): AvailableMarginTable {
  return { available: true, source: "leverage_tiers", boundsIn: "quote", ...options, tiers: withLadderDeductions(tiers) };
}
