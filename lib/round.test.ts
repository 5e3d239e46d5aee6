import { describe, expect, it } from "vitest";
import { roundTo } from "./round";

describe("roundTo", () => {
  it("rounds to the given number of decimals, removing float noise", () => {
    expect(roundTo(0.1 + 0.2, 6)).toBe(0.3);
    expect(roundTo(1.23456789, 4)).toBe(1.2346);
    expect(roundTo(12.345678, 2)).toBe(12.35);
    expect(roundTo(0.000012345678, 12)).toBe(0.000012345678);
    expect(roundTo(2.5, 0)).toBe(3);
  });

  it("rounds halves up like Math.round, negatives included", () => {
    expect(roundTo(-1.00005, 4)).toBe(Math.round(-1.00005 * 1e4) / 1e4);
    expect(roundTo(-2.5, 0)).toBe(-2);
  });

  it("turns −0 into 0, also when a small negative rounds to zero", () => {
    expect(Object.is(roundTo(-0, 6), 0)).toBe(true);
    expect(Object.is(roundTo(-0.0000001, 6), 0)).toBe(true);
    expect(JSON.stringify({ v: roundTo(-0.0000001, 6) })).toBe('{"v":0}');
  });

  it("gives exactly what the copies it replaced gave: Math.round(x * 1e6) / 1e6 + 0", () => {
    const samples = [0, 1, -1, 0.1 + 0.2, 1 / 3, -2 / 3, 123456.7890123, -0.0000005, 0.0000005, 1e-9, 54.75 * 1.1, Math.PI * 1e5];
    for (const x of samples) {
      expect(roundTo(x, 6)).toBe(Math.round(x * 1e6) / 1e6 + 0);
      expect(roundTo(x, 4)).toBe(Math.round(x * 1e4) / 1e4 + 0);
      expect(roundTo(x, 2)).toBe(Math.round(x * 100) / 100 + 0);
    }
  });

  it("scales by exactly 10 ** decimals for every number of decimals", () => {
    const samples = [1 / 3, -2 / 3, 0.1 + 0.2, 123.456789012345, 1e-7 + 1e-15];
    for (let decimals = 0; decimals <= 24; decimals++) {
      for (const x of samples) expect(roundTo(x, decimals)).toBe(Math.round(x * 10 ** decimals) / 10 ** decimals + 0);
    }
  });
});
