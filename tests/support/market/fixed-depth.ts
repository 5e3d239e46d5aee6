import type { MarginTable } from "@/lib/market/books/margin-table";
import type { VenueDepthSource, VenueDepthSources } from "@/lib/market/books/market-depth";
import type { BookLevel, OrderBook } from "@/lib/market/books/order-book";
import { VENUE_IDS } from "@/lib/market/model/types";
import { quoteLadder } from "./margin-tables";

const levels = (side: 1 | -1): BookLevel[] => Array.from({ length: 50 }, (_, i) => [100 + side * (0.01 + 0.02 * i), 1_000]);

/** Any market's book: mid 100, 50 levels of 1,000 units a side 2 bps apart ($5M a side), in the coin. */
export function fixedBook(now = Date.now()): OrderBook {
  return { bids: levels(-1), asks: levels(1), contractSize: 1, timestamp: now, source: "venue" };
}

/** Any market's tiers: 0.5 % to 1M at 100x, 1 % to 10M at 50x, then 2.5 % at 20x, with ladder deductions. */
export const FIXED_MARGIN: MarginTable = quoteLadder([
  { floor: 0, cap: 1_000_000, maintenanceMarginRate: 0.005, maxLeverage: 100 },
  { floor: 1_000_000, cap: 10_000_000, maintenanceMarginRate: 0.01, maxLeverage: 50 },
  { floor: 10_000_000, cap: null, maintenanceMarginRate: 0.025, maxLeverage: 20 },
]);

/**
 * Every venue answering every market with fixedBook and FIXED_MARGIN, without ccxt or a network:
 * for tests whose live opportunities are made up (any symbol on any venue) and that only need a
 * quote to be answered, such as the contract tests of every route.
 */
export function fixedDepthSources(): VenueDepthSources {
  const source: VenueDepthSource = { book: async () => fixedBook(), spotBook: async () => fixedBook(), margin: async () => FIXED_MARGIN };
  return Object.fromEntries(VENUE_IDS.map((venue) => [venue, source]));
}
