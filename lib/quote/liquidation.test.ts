import { describe, expect, it } from "vitest";
import { withLadderDeductions, type MarginTable } from "@/lib/market/books/margin-table";
import { liquidationPrice, tierFor } from "./liquidation";

// Binance's BTCUSDT brackets of 2024-10-24 (lib/market/fixtures/binance), the first three.
const binance: Extract<MarginTable, { available: true }> = {
  available: true,
  source: "leverage_tiers",
  boundsIn: "quote",
  tiers: withLadderDeductions([
    { floor: 0, cap: 50_000, maintenanceMarginRate: 0.004, maxLeverage: 125 },
    { floor: 50_000, cap: 600_000, maintenanceMarginRate: 0.005, maxLeverage: 100 },
    { floor: 600_000, cap: 3_000_000, maintenanceMarginRate: 0.0065, maxLeverage: 75 },
  ]),
};

describe("tierFor", () => {
  it("finds the tier of the position's value at entry, caps inclusive", () => {
    // 0.5 BTC at 100,000 = 50,000: the top of the first bracket.
    expect(tierFor(binance, { side: "long", entryPrice: 100_000, quantity: 0.5, leverage: 3 })?.maintenanceMarginRate).toBe(0.004);
    expect(tierFor(binance, { side: "long", entryPrice: 100_000, quantity: 1, leverage: 3 })?.maintenanceMarginRate).toBe(0.005);
    // 31 BTC = 3.1M is past the last cap listed.
    expect(tierFor(binance, { side: "long", entryPrice: 100_000, quantity: 31, leverage: 3 })).toBeUndefined();
  });

  it("compares quantities for tables bounded in venue units (OKX's contracts)", () => {
    const okx: Extract<MarginTable, { available: true }> = {
      ...binance,
      boundsIn: "base",
      tiers: [
        { floor: 0, cap: 10, maintenanceMarginRate: 0.004, maxLeverage: 100, maintenanceAmount: 0 },
        { floor: 10, cap: 50, maintenanceMarginRate: 0.006, maxLeverage: 75, maintenanceAmount: 0 },
      ],
    };
    // 12 BTC, whatever they are worth.
    expect(tierFor(okx, { side: "short", entryPrice: 1, quantity: 12, leverage: 3 })?.maintenanceMarginRate).toBe(0.006);
  });

  it("gives the ladder deductions Binance lists as `cum`", () => {
    // 50,000 × (0.005 − 0.004) = 50; 50 + 600,000 × (0.0065 − 0.005) = 950.
    expect(binance.tiers.map((t) => t.maintenanceAmount)).toEqual([0, 50, 950]);
  });
});

describe("liquidationPrice", () => {
  it("liquidates a long where the margin left meets the tier's maintenance", () => {
    // 3x, 0.5 BTC at 100,000, rate 0.4 %, nothing deducted: 100,000 × (1 − 1/3) / 0.996 = 66,934.40.
    const price = liquidationPrice({ side: "long", entryPrice: 100_000, quantity: 0.5, leverage: 3 }, binance.tiers[0]!);
    expect(price).toBeCloseTo(66_934.404284, 5);
  });

  it("takes the tier's deduction per unit of the position", () => {
    // 10x, 1 BTC at 100,000, second bracket (0.5 %, 50 deducted):
    // long (90,000 − 50) / 0.995 = 90,402.01; short (110,000 + 50) / 1.005 = 109,502.49.
    const tier = binance.tiers[1]!;
    expect(liquidationPrice({ side: "long", entryPrice: 100_000, quantity: 1, leverage: 10 }, tier)).toBeCloseTo(90_402.01005, 4);
    expect(liquidationPrice({ side: "short", entryPrice: 100_000, quantity: 1, leverage: 10 }, tier)).toBeCloseTo(109_502.487562, 5);
  });

  it("is null for a long that the price cannot fall far enough to liquidate", () => {
    // At 1x the margin is the whole value: (100,000 × 0 − 0) / 0.996 = 0.
    expect(liquidationPrice({ side: "long", entryPrice: 100_000, quantity: 0.5, leverage: 1 }, binance.tiers[0]!)).toBeNull();
    // A short at 1x is liquidated when the price has roughly doubled: 200,000 / 1.004 = 199,203.19.
    expect(liquidationPrice({ side: "short", entryPrice: 100_000, quantity: 0.5, leverage: 1 }, binance.tiers[0]!)).toBeCloseTo(199_203.187251, 5);
  });
});
