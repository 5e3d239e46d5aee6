import { describe, expect, it } from "vitest";
import { DEFAULT_TAKER_FEE, netApr } from "../model/apr";
import { carryBasisBps, carryBasisUnavailable, perpSpotApr, spotPerpApr, spotTakerFee } from "./carry-apr";
import { annualisedBorrowPct } from "./spot-leg";

const at = Date.UTC(2026, 8, 27, 13, 30);

describe("carry APRs", () => {
  it("pay spot_perp the perpetual's funding: 0.01 % per 8 h is 10.95 % a year", () => {
    // 0.0001 × 8760 / 8 × 100 = 10.95.
    expect(spotPerpApr({ rate: 0.0001, intervalHours: 8 })).toBeCloseTo(10.95, 10);
  });

  it("charge perp_spot the funding and the borrow: −10.95 − 3.65 = −14.6 % a year", () => {
    // Borrow 0.0001 a day: 0.0001 × 365 × 100 = 3.65 % a year.
    const borrow = annualisedBorrowPct(0.0001, "day");
    expect(borrow).toBeCloseTo(3.65, 10);
    expect(perpSpotApr({ rate: 0.0001, intervalHours: 8 }, borrow)).toBeCloseTo(-14.6, 10);
    // Negative funding is the long's income: 0.03 % per 8 h paid to the long is 32.85 % a year, 29.2 after borrow.
    expect(perpSpotApr({ rate: -0.0003, intervalHours: 8 }, borrow)).toBeCloseTo(29.2, 10);
  });

  it("charge both legs' taker fees on open and close over the holding period", () => {
    // 0.1 % spot + 0.05 % perp, four fills: 2 × 0.0015 = 0.3 % per 7 days; × 365 / 7 = 15.642857 % a year.
    expect(10.95 - netApr(10.95, 0.001, 0.0005, 7)).toBeCloseTo(15.642857, 6);
    expect(netApr(10.95, 0.001, 0.0005, 7)).toBeCloseTo(-4.692857, 6);
  });

  it("charge a spot leg without a stated fee the default taker fee", () => {
    expect(spotTakerFee({ takerFee: null })).toBe(DEFAULT_TAKER_FEE);
    expect(spotTakerFee({ takerFee: 0.001 })).toBe(0.001);
    expect(spotTakerFee({ takerFee: 0 })).toBe(0);
  });
});

describe("carryBasisBps and carryBasisUnavailable", () => {
  it("is the perpetual's premium over spot in bps of the spot price", () => {
    // (100.1 − 100) / 100 × 10,000 = 10 bps; a perpetual below spot is negative: (99.95 − 100) / 100 = −5 bps.
    expect(carryBasisUnavailable(100.1, at, 100, at)).toBeNull();
    expect(carryBasisBps(100.1, 100)).toBe(10);
    expect(carryBasisUnavailable(99.95, at, 100, at + 30_000)).toBeNull();
    expect(carryBasisBps(99.95, 100)).toBe(-5);
  });

  it("is not given for prices of different moments or without a mark, and says why", () => {
    // The carry ranking then leaves the basis out (carry-pairs.test.ts: null with this reason).
    expect(carryBasisUnavailable(100.1, at, 100, at + 30_001)).toBe("legs_observed_apart");
    expect(carryBasisUnavailable(Number.NaN, at, 100, at)).toBe("price_missing");
  });
});
