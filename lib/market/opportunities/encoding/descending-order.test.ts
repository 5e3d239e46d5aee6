import { describe, expect, it } from "vitest";
import { descendingOrder, descendingOrderSlices } from "./descending-order";

describe("descendingOrder", () => {
  it("orders positions from the largest value down, equal values in position order", () => {
    const values = [3, -1.5, 0, 3, 1e-300, -1e300, 2.000001, -1.5, 0, 1e300, 2];
    const expected = values.map((_, i) => i).sort((a, b) => values[b]! - values[a]! || a - b);
    expect([...descendingOrder(Float64Array.from(values))]).toEqual(expected);
  });

  it("orders equal values by their tie keys, smallest first, and equal keys by position", () => {
    const values = [2, 5, 2, -1, 5, 2, 2];
    const keys = [9, 3, 1, 0, 3, 70_000, 1];
    const expected = values.map((_, i) => i).sort((a, b) => values[b]! - values[a]! || keys[a]! - keys[b]! || a - b);
    expect([...descendingOrder(Float64Array.from(values), Uint32Array.from(keys))]).toEqual(expected);
  });

  it("agrees with a comparison sort on many random values with repeats", () => {
    let seed = 7;
    const random = () => ((seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31);
    const values = Array.from({ length: 5_000 }, () => Math.round((random() - 0.5) * 2_000) / 7);
    const expected = values.map((_, i) => i).sort((a, b) => values[b]! - values[a]! || a - b);
    expect([...descendingOrder(Float64Array.from(values))]).toEqual(expected);
  });

  it("skips the passes of digits every key shares and still orders exactly", () => {
    // One magnitude (the doubles' high bits alike) and tie keys under 65,536 (their high digit 0).
    const values = Float64Array.from({ length: 2_000 }, (_, i) => 1 + ((i * 7_919) % 97) / 128);
    const keys = Uint32Array.from({ length: 2_000 }, (_, i) => (i * 104_729) % 5_003);
    const expected = [...values.keys()].sort((a, b) => values[b]! - values[a]! || keys[a]! - keys[b]! || a - b);
    expect([...descendingOrder(values, keys)]).toEqual(expected);
    let pauses = 0;
    for (const slices = descendingOrderSlices(values, keys); !slices.next().done; ) pauses += 1;
    expect(pauses).toBeLessThan(7);
  });

  it("pauses before its passes and after each, in slices giving the order it gives at once", () => {
    const values = Float64Array.from({ length: 3_000 }, (_, i) => ((i * 7_919) % 1_009) / 13 - 30);
    const keys = Uint32Array.from({ length: 3_000 }, (_, i) => (i * 104_729) % 70_001);
    const slices = descendingOrderSlices(values, keys);
    let pauses = 0;
    let step = slices.next();
    for (; !step.done; step = slices.next()) pauses += 1;
    expect(pauses).toBe(7);
    expect([...step.value]).toEqual([...descendingOrder(values, keys)]);
  });
});

describe("descendingOrder of whole millionths (APRs to six decimals)", () => {
  it("orders them as their bits would: ties by key, then by position, the extremes included", () => {
    let seed = 11;
    const random = () => ((seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31);
    // Rounded as roundTo rounds APRs, with repeats, both signs and the largest magnitudes allowed.
    const values = Array.from({ length: 4_000 }, () => Math.round((random() - 0.5) * 2e7) / 1e6 + 0);
    values.push(2_147.483647, -2_147.483648, 0, 0);
    const keys = values.map((_, i) => (i * 7_919) % 13);
    const expected = values.map((_, i) => i).sort((a, b) => values[b]! - values[a]! || keys[a]! - keys[b]! || a - b);
    expect([...descendingOrder(Float64Array.from(values), Uint32Array.from(keys))]).toEqual(expected);
  });

  it("sorts them in two passes of their own, and values beyond them by their bits", () => {
    const pausesOf = (values: number[]) => {
      let pauses = 0;
      for (const slices = descendingOrderSlices(Float64Array.from(values)); !slices.next().done; ) pauses += 1;
      return pauses;
    };
    const micros = Array.from({ length: 3_000 }, (_, i) => (((i * 7_919) % 100_003) - 50_000) / 1e6);
    expect(pausesOf(micros)).toBe(3);
    // One value past ±2,147.483648 or between millionths: the double's bits, in up to four passes.
    for (const odd of [2_147.483648, 1e-7]) {
      const values = [...micros, odd];
      expect(pausesOf(values)).toBeGreaterThan(3);
      expect([...descendingOrder(Float64Array.from(values))]).toEqual(values.map((_, i) => i).sort((a, b) => values[b]! - values[a]! || a - b));
    }
  });
});
