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

/** Binance's BTCUSDT brackets of 2024-10-24 (lib/market/sample/recordings/binance), the first three. */
export const BINANCE_BTC_BRACKETS: readonly ListedTier[] = [
  { floor: 0, cap: 50_000, maintenanceMarginRate: 0.004, maxLeverage: 125 },
  { floor: 50_000, cap: 600_000, maintenanceMarginRate: 0.005, maxLeverage: 100 },
  { floor: 600_000, cap: 3_000_000, maintenanceMarginRate: 0.0065, maxLeverage: 75 },
];
