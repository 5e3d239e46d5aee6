import type { BookLevel } from "@/lib/market/books/order-book";

/*
 * Walking one side of an order book as a market order does: best level first, each level's amount
 * (in the book's unit) times the contract size giving venue units (BTC, or 1000 PEPE on a
 * `1000PEPE` market), whose value is quantity × price in USD.
 */

/** What a market order for some quantity got from one side of a book. */
export interface Walk {
  /** Venue units filled; less than asked when the side ran out. */
  quantity: number;
  /** USD paid (a buy) or received (a sell): Σ quantity × price over the levels used. */
  value: number;
  /** Levels the order reached, the last one possibly in part. */
  levels: number;
}

/** Venue units the side holds in all. */
export function sideQuantity(levels: readonly BookLevel[], contractSize: number): number {
  let total = 0;
  for (const [, amount] of levels) total += amount * contractSize;
  return total;
}

/** Takes `quantity` venue units from the side, best level first. */
export function walkLevels(levels: readonly BookLevel[], contractSize: number, quantity: number): Walk {
  let left = quantity;
  let value = 0;
  let used = 0;
  for (const [price, amount] of levels) {
    if (left <= 0) break;
    const take = Math.min(left, amount * contractSize);
    value += take * price;
    left -= take;
    used += 1;
  }
  return { quantity: quantity - Math.max(0, left), value, levels: used };
}

/**
 * The most venue units a market order can take from the side while its average price stays within
 * `maxBps` of `reference`: a buy's average at most reference × (1 + maxBps / 10⁴), a sell's at
 * least reference × (1 − maxBps / 10⁴). `wholeSide` is true when every level fits, so the true
 * limit lies beyond the levels the book showed.
 *
 * Levels at or better than the limit price T are taken whole; of one beyond it, the part q that
 * brings the average to T exactly solves (V + q·p) / (Q + q) = T: q = (T·Q − V) / (p − T), for a
 * buy and a sell alike (both signs flip for a sell). A level with q beyond its amount fits whole.
 */
export function quantityWithin(
  levels: readonly BookLevel[],
  contractSize: number,
  side: "buy" | "sell",
  reference: number,
  maxBps: number,
): { quantity: number; wholeSide: boolean } {
  const sign = side === "buy" ? 1 : -1;
  const limit = reference * (1 + (sign * maxBps) / 10_000);
  let quantity = 0;
  let value = 0;
  for (const [price, amount] of levels) {
    const units = amount * contractSize;
    // Beyond the limit price, a level still fits whole while the slack the better levels left
    // covers it; the same q, with the signs of a sell, holds for both sides.
    const part = sign * (price - limit) <= 0 ? units : (limit * quantity - value) / (price - limit);
    if (part < units) return { quantity: quantity + Math.max(0, part), wholeSide: false };
    quantity += units;
    value += units * price;
  }
  return { quantity, wholeSide: true };
}
