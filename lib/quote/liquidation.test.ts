import { describe, expect, it } from "vitest";
import { withoutDeductions, type ListedTier } from "@/lib/market/books/margin-table";
import { BINANCE_BTC_BRACKETS, quoteLadder, type AvailableMarginTable } from "@/tests/support/market/margin-tables";
import { liquidationAtEntryValue, liquidationAtMarkValue, liquidationPrice, tierFor } from "./liquidation";

const binance = quoteLadder(BINANCE_BTC_BRACKETS);

/** Tiers with nothing deducted (OKX's, Bitget's), bounded in the venue's units (`base`) or in value. */
function flatTiers(boundsIn: "base" | "quote", tiers: readonly ListedTier[]): AvailableMarginTable {
  return { ...binance, boundsIn, tiers: withoutDeductions(tiers) };
}

describe("tierFor", () => {
  it("finds the tier of the position's value at entry, caps inclusive", () => {
    // 0.5 BTC at 100,000 = 50,000: the top of the first bracket.
    expect(tierFor(binance, { side: "long", entryPrice: 100_000, quantity: 0.5, leverage: 3 })?.maintenanceMarginRate).toBe(0.004);
    expect(tierFor(binance, { side: "long", entryPrice: 100_000, quantity: 1, leverage: 3 })?.maintenanceMarginRate).toBe(0.005);
    // 31 BTC = 3.1M is past the last cap listed.
    expect(tierFor(binance, { side: "long", entryPrice: 100_000, quantity: 31, leverage: 3 })).toBeUndefined();
  });

  it("compares quantities for tables bounded in venue units (OKX's contracts)", () => {
    const okx = flatTiers("base", [
      { floor: 0, cap: 10, maintenanceMarginRate: 0.004, maxLeverage: 100 },
      { floor: 10, cap: 50, maintenanceMarginRate: 0.006, maxLeverage: 75 },
    ]);
    // 12 BTC, whatever they are worth.
    expect(tierFor(okx, { side: "short", entryPrice: 1, quantity: 12, leverage: 3 })?.maintenanceMarginRate).toBe(0.006);
  });

  it("holds a size between one tier's cap and the next tier's listed floor in the next tier", () => {
    // OKX lists BTC-USDT-SWAP's tier 1 to 1,000 contracts (10 BTC) and tier 2 from 1,001 (10.01 BTC):
    // tiers are contiguous, so 10.005 BTC is tier 2's, at its 75x, not in no tier at all.
    const okx = flatTiers("base", [
      { floor: 0, cap: 10, maintenanceMarginRate: 0.004, maxLeverage: 100 },
      { floor: 10.01, cap: 20, maintenanceMarginRate: 0.006, maxLeverage: 75 },
    ]);
    expect(tierFor(okx, { side: "long", entryPrice: 1, quantity: 10.005, leverage: 3 })).toMatchObject({ maintenanceMarginRate: 0.006, maxLeverage: 75 });
    expect(tierFor(okx, { side: "long", entryPrice: 1, quantity: 10, leverage: 3 })?.maxLeverage).toBe(100);
    expect(tierFor(okx, { side: "long", entryPrice: 1, quantity: 20.001, leverage: 3 })).toBeUndefined();
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

describe("liquidationAtMarkValue (Binance: the bracket of the notional at the liquidation price)", () => {
  it("takes a lower bracket when a long's notional falls into it on the way down", () => {
    // 0.6 BTC long at 100,000 = 60,000, Binance's second bracket at entry, at 2x. In that bracket
    // (0.5 %, cum 50): (50,000 − 50 / 0.6) / 0.995 = 50,167.50, a notional of 30,100.50, which is the
    // first bracket's. In the first (0.4 %, cum 0): 50,000 / 0.996 = 50,200.803213, notional 30,120.48
    // ≤ 50,000: Binance's liquidation price.
    const liquidation = liquidationAtMarkValue(binance, { side: "long", entryPrice: 100_000, quantity: 0.6, leverage: 2 });
    expect(liquidation?.price).toBeCloseTo(50_200.803213, 5);
    expect(liquidation?.tier.maintenanceMarginRate).toBe(0.004);
  });

  it("takes a higher bracket when a short's notional rises into it", () => {
    // 0.49 BTC short at 100,000 = 49,000 (first bracket) at 1x. First bracket: 200,000 / 1.004 =
    // 199,203.19, a notional of 97,609.56: the second's. Second (0.5 %, cum 50): (200,000 + 50 / 0.49)
    // / 1.005 = (200,000 + 102.040816) / 1.005 = 199,106.508275, notional 97,562.19, in the bracket.
    const liquidation = liquidationAtMarkValue(binance, { side: "short", entryPrice: 100_000, quantity: 0.49, leverage: 1 });
    expect(liquidation?.price).toBeCloseTo(199_106.508275, 5);
    expect(liquidation?.tier.maintenanceMarginRate).toBe(0.005);
  });

  it("liquidates at a tier's bound where a rate on the whole position jumps past the margin left", () => {
    // No deductions: 1 % to 50,000, then 70 %. 1 unit short at 40,000 at 1x: the first tier's X,
    // 80,000 / 1.01 = 79,207.92, is past its cap; the second's, 80,000 / 1.7 = 47,058.82, below its
    // floor. At 50,000 the margin left, 80,000 − 50,000 = 30,000, meets 1 % (500) below the bound
    // and falls short of 70 % (35,000) above it: liquidated as the notional crosses 50,000.
    const jumpy = flatTiers("quote", [
      { floor: 0, cap: 50_000, maintenanceMarginRate: 0.01, maxLeverage: 100 },
      { floor: 50_000, cap: null, maintenanceMarginRate: 0.7, maxLeverage: 1 },
    ]);
    const liquidation = liquidationAtMarkValue(jumpy, { side: "short", entryPrice: 40_000, quantity: 1, leverage: 1 });
    expect(liquidation).toMatchObject({ price: 50_000, tier: { maintenanceMarginRate: 0.7 } });
  });

  it("keeps the entry bracket when the liquidation notional stays in it", () => {
    // 10x, 1 BTC at 100,000: (90,000 − 50) / 0.995 = 90,402.01, notional 90,402 in the second bracket.
    expect(liquidationAtMarkValue(binance, { side: "long", entryPrice: 100_000, quantity: 1, leverage: 10 })?.price).toBeCloseTo(90_402.01005, 4);
  });
});

describe("liquidationAtEntryValue (Bybit: maintenance on the value at entry)", () => {
  // Bybit's BTCUSDT risk limits as a live table had them (2026-02-26): 0.5 % to 2,000,000, then 0.56 %
  // to 2,600,000 deducting 1,200.
  const bybit = quoteLadder(
    [
      { floor: 0, cap: 2_000_000, maintenanceMarginRate: 0.005, maxLeverage: 100 },
      { floor: 2_000_000, cap: 2_600_000, maintenanceMarginRate: 0.0056, maxLeverage: 87.72 },
    ],
    { maintenanceOn: "entry" },
  );

  it("gives Bybit's own example: 1 BTC long at 20,000 at 50x, MMR 0.5 %, liquidated at 19,700", () => {
    // IM 20,000 / 50 = 400, MM 20,000 × 0.5 % = 100: 20,000 − (400 − 100) / 1 = 19,700.
    expect(liquidationAtEntryValue(bybit, { side: "long", entryPrice: 20_000, quantity: 1, leverage: 50 })?.price).toBeCloseTo(19_700, 9);
  });

  it("deducts the entry tier's amount for a short", () => {
    // 30 BTC short at 70,000 = 2,100,000 (second tier) at 10x: IM 210,000, MM 2,100,000 × 0.56 % −
    // 1,200 = 10,560: 70,000 + (210,000 − 10,560) / 30 = 76,648. On the mark value it would be
    // (77,000 + 40) / 1.0056 = 76,610.98.
    const liquidation = liquidationAtEntryValue(bybit, { side: "short", entryPrice: 70_000, quantity: 30, leverage: 10 });
    expect(liquidation?.price).toBeCloseTo(76_648, 8);
    expect(liquidation?.tier.maintenanceAmount).toBe(1_200);
  });
});
