/** One price level: [price per venue unit, amount in the book's own unit]. */
export type BookLevel = readonly [price: number, amount: number];

/** Where a book came from: a venue's answer, a recording bundled with the offline sample, or the sandbox. */
export const DEPTH_SOURCES = ["venue", "recording", "sandbox"] as const;
export type DepthSource = (typeof DEPTH_SOURCES)[number];

/**
 * Both sides of one market's order book, best price first. Prices are per venue unit (per 1000
 * PEPE on a `1000PEPE` market), like a leg's `mark_price`. Amounts are in the book's own unit,
 * which is not always the coin: OKX and Gate count contracts, so `contractSize` says how many
 * venue units one amount unit is (BTC-USDT-SWAP: 0.01 BTC; Gate BTC_USDT: 0.0001 BTC; 1 where
 * the venue counts the coin), as ccxt's `market.contractSize` does.
 */
export interface OrderBook {
  /** Highest price first. */
  bids: readonly BookLevel[];
  /** Lowest price first. */
  asks: readonly BookLevel[];
  contractSize: number;
  /** Epoch ms the venue stamped the book with, else when it was received. */
  timestamp: number;
  source: DepthSource;
}

/** The levels that can be traded against: finite positive prices and amounts, best first, whatever order they came in. */
export function tradableLevels(levels: readonly (readonly [unknown, unknown])[], side: "bids" | "asks"): BookLevel[] {
  const kept: BookLevel[] = [];
  for (const [price, amount] of levels) {
    const p = Number(price);
    const a = Number(amount);
    if (Number.isFinite(p) && Number.isFinite(a) && p > 0 && a > 0) kept.push([p, a]);
  }
  return kept.sort(side === "bids" ? (x, y) => y[0] - x[0] : (x, y) => x[0] - y[0]);
}

/** The midpoint of the best bid and the best ask; null when a side is empty. */
export function midPrice(book: Pick<OrderBook, "bids" | "asks">): number | null {
  const bid = book.bids[0]?.[0];
  const ask = book.asks[0]?.[0];
  return bid === undefined || ask === undefined ? null : (bid + ask) / 2;
}
