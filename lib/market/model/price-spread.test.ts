import { describe, expect, it } from "vitest";
import {
  observedTogether,
  PRICE_OBSERVATION_TOLERANCE_MS,
  priceSpread,
  priceSpreadBps,
  priceSpreadUnavailableReason,
} from "./price-spread";

const AT = Date.UTC(2026, 8, 27, 13, 50);

describe("priceSpreadBps", () => {
  it("measures the price gap in bps of the mean, positive when the short leg is dearer", () => {
    expect(priceSpreadBps(100, 101)).toBeCloseTo((1 / 100.5) * 10_000, 10); // 99.5024875622
    expect(priceSpreadBps(101, 100)).toBeCloseTo(-(1 / 100.5) * 10_000, 10);
    expect(priceSpreadBps(null, 100)).toBeNull();
    expect(priceSpreadBps(0, 100)).toBeNull();
  });
});

describe("observedTogether", () => {
  it("is 30 seconds: within one ingestion round's venue deadline, under one round interval", () => {
    expect(PRICE_OBSERVATION_TOLERANCE_MS).toBe(30_000);
  });

  it("admits observations up to the tolerance apart, the boundary included, in either order", () => {
    expect(observedTogether(AT, AT)).toBe(true);
    expect(observedTogether(AT, AT + PRICE_OBSERVATION_TOLERANCE_MS)).toBe(true);
    expect(observedTogether(AT + PRICE_OBSERVATION_TOLERANCE_MS, AT)).toBe(true);
    expect(observedTogether(AT, AT + PRICE_OBSERVATION_TOLERANCE_MS + 1)).toBe(false);
    expect(observedTogether(AT + PRICE_OBSERVATION_TOLERANCE_MS + 1, AT)).toBe(false);
  });

  it("never treats an unknown time as the same moment", () => {
    expect(observedTogether(null, AT)).toBe(false);
    expect(observedTogether(AT, null)).toBe(false);
    expect(observedTogether(null, null)).toBe(false);
  });

  it("takes another tolerance when asked", () => {
    expect(observedTogether(AT, AT + 60_000, 60_000)).toBe(true);
    expect(observedTogether(AT, AT + 60_001, 60_000)).toBe(false);
  });
});

describe("priceSpreadUnavailableReason and priceSpread", () => {
  const leg = (unitPrice: number | null, observedAt: number | null) => ({ unitPrice, observedAt });

  it("gives the spread, rounded to 4 decimals, for priced legs of the same moment", () => {
    expect(priceSpreadUnavailableReason(leg(100, AT), leg(101, AT + PRICE_OBSERVATION_TOLERANCE_MS))).toBeNull();
    expect(priceSpread(leg(100, AT), leg(101, AT + PRICE_OBSERVATION_TOLERANCE_MS))).toEqual({
      price_spread_bps: 99.5025,
      price_spread_unavailable_reason: null,
    });
  });

  it("refuses legs observed one millisecond past the tolerance apart", () => {
    expect(priceSpread(leg(100, AT), leg(101, AT + PRICE_OBSERVATION_TOLERANCE_MS + 1))).toEqual({
      price_spread_bps: null,
      price_spread_unavailable_reason: "legs_observed_apart",
    });
  });

  it("refuses the sample's cross-date pair: OKX's ETH of 2026-09-27 against Binance's of 2025-06-17", () => {
    // Without the rule these two marks gave the −496 bps the first-run screener showed.
    const binance = leg(2575.46, Date.UTC(2025, 5, 17, 8, 38, 8));
    const okx = leg(2706.51, Date.UTC(2026, 8, 27, 13, 50));
    expect(priceSpreadBps(okx.unitPrice, binance.unitPrice)).toBeCloseTo(-496.2164, 4);
    expect(priceSpread(okx, binance).price_spread_unavailable_reason).toBe("legs_observed_apart");
  });

  it("says a missing price first, then an unknown time", () => {
    expect(priceSpreadUnavailableReason(leg(null, AT), leg(100, AT - 86_400_000))).toBe("price_missing");
    expect(priceSpreadUnavailableReason(leg(100, AT), leg(null, null))).toBe("price_missing");
    expect(priceSpreadUnavailableReason(leg(100, null), leg(100, AT))).toBe("observation_time_unknown");
    expect(priceSpread(leg(100, AT), leg(100, null))).toEqual({
      price_spread_bps: null,
      price_spread_unavailable_reason: "observation_time_unknown",
    });
  });
});
