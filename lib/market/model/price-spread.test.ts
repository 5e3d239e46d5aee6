import { describe, expect, it } from "vitest";
import { PRICE_OBSERVATION_TOLERANCE_MS, roundedSpreadBps, spreadBpsOf, unavailableReasonOf } from "./price-spread";

const AT = Date.UTC(2026, 8, 27, 13, 50);
const UNKNOWN = Number.NaN;

describe("spreadBpsOf", () => {
  it("measures the price gap in bps of the mean, positive when the short leg is dearer", () => {
    expect(spreadBpsOf(100, 101)).toBeCloseTo((1 / 100.5) * 10_000, 10); // 99.5024875622
    expect(spreadBpsOf(101, 100)).toBeCloseTo(-(1 / 100.5) * 10_000, 10);
  });

  it("has none without a positive price on both sides", () => {
    expect(spreadBpsOf(UNKNOWN, 100)).toBeNaN();
    expect(spreadBpsOf(0, 100)).toBeNaN();
    expect(spreadBpsOf(100, -1)).toBeNaN();
  });
});

describe("the tolerance between the legs' observations", () => {
  const reason = (longAt: number, shortAt: number, tolerance?: number) => unavailableReasonOf(100, longAt, 101, shortAt, tolerance);

  it("is 30 seconds: within one ingestion round's venue deadline, under one round interval", () => {
    expect(PRICE_OBSERVATION_TOLERANCE_MS).toBe(30_000);
  });

  it("admits observations up to the tolerance apart, the boundary included, in either order", () => {
    expect(reason(AT, AT)).toBeNull();
    expect(reason(AT, AT + PRICE_OBSERVATION_TOLERANCE_MS)).toBeNull();
    expect(reason(AT + PRICE_OBSERVATION_TOLERANCE_MS, AT)).toBeNull();
    expect(reason(AT, AT + PRICE_OBSERVATION_TOLERANCE_MS + 1)).toBe("legs_observed_apart");
    expect(reason(AT + PRICE_OBSERVATION_TOLERANCE_MS + 1, AT)).toBe("legs_observed_apart");
  });

  it("never treats an unknown time as the same moment", () => {
    expect(reason(UNKNOWN, AT)).toBe("observation_time_unknown");
    expect(reason(AT, UNKNOWN)).toBe("observation_time_unknown");
    expect(reason(UNKNOWN, UNKNOWN)).toBe("observation_time_unknown");
  });

  it("takes another tolerance when asked", () => {
    expect(reason(AT, AT + 60_000, 60_000)).toBeNull();
    expect(reason(AT, AT + 60_001, 60_000)).toBe("legs_observed_apart");
  });
});

describe("unavailableReasonOf and roundedSpreadBps", () => {
  it("gives the spread, rounded to 4 decimals, for priced legs of the same moment", () => {
    expect(unavailableReasonOf(100, AT, 101, AT + PRICE_OBSERVATION_TOLERANCE_MS)).toBeNull();
    expect(roundedSpreadBps(100, 101)).toBe(99.5025);
  });

  it("refuses legs observed one millisecond past the tolerance apart", () => {
    // The ranking then leaves the spread out (rank-opportunities.test.ts: null with this reason).
    expect(unavailableReasonOf(100, AT, 101, AT + PRICE_OBSERVATION_TOLERANCE_MS + 1)).toBe("legs_observed_apart");
  });

  it("refuses the sample's cross-date pair: OKX's ETH of 2026-09-27 against Binance's of 2025-06-17", () => {
    // Without the rule these two marks gave the −496 bps the first-run screener showed.
    const [binance, binanceAt] = [2575.46, Date.UTC(2025, 5, 17, 8, 38, 8)];
    const [okx, okxAt] = [2706.51, Date.UTC(2026, 8, 27, 13, 50)];
    expect(spreadBpsOf(okx, binance)).toBeCloseTo(-496.2164, 4);
    expect(unavailableReasonOf(okx, okxAt, binance, binanceAt)).toBe("legs_observed_apart");
  });

  it("says a missing price first, then an unknown time", () => {
    expect(unavailableReasonOf(UNKNOWN, AT, 100, AT - 86_400_000)).toBe("price_missing");
    expect(unavailableReasonOf(100, AT, UNKNOWN, UNKNOWN)).toBe("price_missing");
    expect(unavailableReasonOf(100, UNKNOWN, 100, AT)).toBe("observation_time_unknown");
  });
});
