import { describe, expect, it } from "vitest";
import { backoffDelay } from "./backoff";

const policy = { initialMs: 1_000, maxMs: 60_000 };

describe("backoffDelay", () => {
  it("doubles per attempt up to the maximum", () => {
    const ceilings = [0, 1, 2, 3, 5, 6, 7, 20].map((attempt) => backoffDelay(attempt, policy, () => 0.999_999));
    expect(ceilings).toEqual([1_000, 2_000, 4_000, 8_000, 32_000, 60_000, 60_000, 60_000]);
  });

  it("jitters between half of the ceiling and all of it", () => {
    expect(backoffDelay(2, policy, () => 0)).toBe(2_000);
    expect(backoffDelay(2, policy, () => 0.5)).toBe(3_000);
    const seen = Array.from({ length: 200 }, () => backoffDelay(3, policy));
    expect(Math.min(...seen)).toBeGreaterThanOrEqual(4_000);
    expect(Math.max(...seen)).toBeLessThanOrEqual(8_000);
    expect(new Set(seen).size).toBeGreaterThan(1);
  });

  it("treats a negative or huge attempt as the first or the last", () => {
    expect(backoffDelay(-3, policy, () => 0.999_999)).toBe(1_000);
    expect(backoffDelay(10_000, policy, () => 0.999_999)).toBe(60_000);
  });
});
