import { describe, expect, it } from "vitest";
import type { BookLevel } from "@/lib/market/books/order-book";
import { quantityWithin, sideQuantity, walkLevels } from "./walk-book";

const asks: BookLevel[] = [
  [100, 1],
  [101, 2],
  [103, 5],
];
const bids: BookLevel[] = [
  [100, 1],
  [99, 2],
  [97, 5],
];

describe("walkLevels", () => {
  it("takes the best levels first, the last one in part", () => {
    // 1 @ 100 + 1 of 2 @ 101 = 201 for 2 units, over 2 levels.
    expect(walkLevels(asks, 1, 2)).toEqual({ quantity: 2, value: 201, levels: 2 });
  });

  it("stops where the side runs out and says how much it got", () => {
    // 1 @ 100 + 2 @ 101 + 5 @ 103 = 100 + 202 + 515 = 817 for the 8 units there are.
    expect(walkLevels(asks, 1, 10)).toEqual({ quantity: 8, value: 817, levels: 3 });
  });

  it("counts contracts times the contract size, as OKX's levels are", () => {
    // OKX BTC-USDT-SWAP asks of 2022-06-04 (lib/market/sample/recordings/okx): 2 and 19 contracts of 0.01 BTC.
    // 0.1 BTC: 0.02 @ 29701.7 = 594.034, then 0.08 @ 29702.9 = 2376.232; 2970.266 in all.
    const okx: BookLevel[] = [
      [29701.7, 2],
      [29702.9, 19],
      [29703.4, 20],
    ];
    const walk = walkLevels(okx, 0.01, 0.1);
    expect(walk.quantity).toBeCloseTo(0.1, 12);
    expect(walk.value).toBeCloseTo(2970.266, 9);
    expect(walk.levels).toBe(2);
    // 41 contracts of 0.01 BTC.
    expect(sideQuantity(okx, 0.01)).toBeCloseTo(0.41, 12);
  });

  it("takes nothing from an empty side", () => {
    expect(walkLevels([], 1, 5)).toEqual({ quantity: 0, value: 0, levels: 0 });
  });
});

describe("quantityWithin", () => {
  it("takes levels up to the limit price whole and the next in the part that brings the average to it (buy)", () => {
    // 100 bps above 100 is 101: 1 @ 100 and 2 @ 101 fit (302 for 3); of the 103s,
    // q = (101 × 3 − 302) / (103 − 101) = 0.5, and (302 + 51.5) / 3.5 = 101 exactly.
    expect(quantityWithin(asks, 1, "buy", 100, 100)).toEqual({ quantity: 3.5, wholeSide: false });
  });

  it("does the same below the reference for a sell", () => {
    // 99 is the limit: 1 @ 100 and 2 @ 99 (298 for 3); of the 97s, q = (99 × 3 − 298) / (97 − 99) = 0.5,
    // and (298 + 48.5) / 3.5 = 99 exactly.
    expect(quantityWithin(bids, 1, "sell", 100, 100)).toEqual({ quantity: 3.5, wholeSide: false });
  });

  it("takes a level beyond the limit whole when the better levels leave slack enough", () => {
    // Limit 101: 10 @ 99 leave 20 of slack (1010 − 990), and 1 @ 102 needs 1 of it: the whole side
    // fits, average 1092 / 11 = 99.27, and the true limit lies beyond what the book showed.
    const book: BookLevel[] = [
      [99, 10],
      [102, 1],
    ];
    expect(quantityWithin(book, 1, "buy", 100, 100)).toEqual({ quantity: 11, wholeSide: true });
  });

  it("is zero when the best price is already beyond the bound", () => {
    // 10 bps above 100 is 100.1; the best ask is 102.
    expect(quantityWithin([[102, 1]], 1, "buy", 100, 10)).toEqual({ quantity: 0, wholeSide: false });
  });

  it("counts in venue units, contracts times their size", () => {
    // The same book as the first case, in contracts of 0.5: every quantity halves.
    const contracts: BookLevel[] = asks.map(([p, a]) => [p, a * 2]);
    expect(quantityWithin(contracts, 0.5, "buy", 100, 100).quantity).toBeCloseTo(3.5, 12);
  });
});
