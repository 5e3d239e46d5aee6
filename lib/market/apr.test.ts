import { describe, expect, it } from "vitest";
import { annualisedFundingPct, feeDragApr, fundingSpread8h, grossApr, netApr } from "./apr";

describe("APR maths (hand-computed)", () => {
  it("annualises per interval: 0.01 %/8h and 0.00125 %/1h are both 10.95 %", () => {
    expect(annualisedFundingPct({ rate: 0.0001, intervalHours: 8 })).toBeCloseTo(10.95, 10);
    expect(annualisedFundingPct({ rate: 0.0000125, intervalHours: 1 })).toBeCloseTo(10.95, 10);
    // Hyperliquid's hourly base rate against Binance's 8-hourly base rate: no spread at all.
    expect(grossApr({ rate: 0.0000125, intervalHours: 1 }, { rate: 0.0001, intervalHours: 8 })).toBeCloseTo(0, 10);
  });

  it("mixes a negative 1h long leg with a positive 8h short leg", () => {
    // long pays −0.002 %/h → receives 0.00002 × 8760 × 100 = 17.52 %/yr
    // short receives 0.03 %/8h → 0.0003 × 1095 × 100 = 32.85 %/yr
    const long = { rate: -0.00002, intervalHours: 1 };
    const short = { rate: 0.0003, intervalHours: 8 };
    expect(grossApr(long, short)).toBeCloseTo(50.37, 10);
    // per 8h: 0.0003 − (−0.00002 × 8) = 0.00046
    expect(fundingSpread8h(long, short)).toBeCloseTo(0.00046, 15);
    // fees 0.045 % + 0.05 %, open and close: 2 × 0.00095 = 0.0019 per 7 days
    // → 0.0019 × 365 / 7 × 100 = 9.9071428571 %/yr
    expect(feeDragApr(0.00045, 0.0005, 7)).toBeCloseTo(9.9071428571, 9);
    expect(netApr(50.37, 0.00045, 0.0005, 7)).toBeCloseTo(40.4628571429, 9);
  });

  it("4h against 8h at the same per-interval rate is not a zero spread", () => {
    // short 0.01 %/4h = 21.9 %/yr, long 0.01 %/8h = 10.95 %/yr
    expect(grossApr({ rate: 0.0001, intervalHours: 8 }, { rate: 0.0001, intervalHours: 4 })).toBeCloseTo(10.95, 10);
    expect(fundingSpread8h({ rate: 0.0001, intervalHours: 8 }, { rate: 0.0001, intervalHours: 4 })).toBeCloseTo(0.0001, 15);
  });

  it("goes negative when fees outweigh the funding over the holding period", () => {
    // 0.001 %/8h spread = 1.095 %/yr; four 0.05 % fills = 0.2 % per round trip
    const apr = grossApr({ rate: 0.0001, intervalHours: 8 }, { rate: 0.00011, intervalHours: 8 });
    expect(apr).toBeCloseTo(1.095, 10);
    expect(netApr(apr, 0.0005, 0.0005, 7)).toBeCloseTo(1.095 - 10.4285714286, 9); // −9.3335714286
    expect(netApr(apr, 0.0005, 0.0005, 30)).toBeCloseTo(1.095 - 2.4333333333, 9);
    expect(netApr(apr, 0.0005, 0.0005, 365)).toBeCloseTo(0.895, 10);
  });

  it("rejects a holding period that is not a positive number", () => {
    expect(() => feeDragApr(0.0005, 0.0005, 0)).toThrow(RangeError);
    expect(() => feeDragApr(0.0005, 0.0005, Number.NaN)).toThrow(RangeError);
  });
});
