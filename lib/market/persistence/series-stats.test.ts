import { describe, expect, it } from "vitest";
import { medianInPlace, populationStddev } from "./series-stats";

const median = (values: number[], count = values.length) => medianInPlace(Float64Array.from(values), count);

describe("medianInPlace", () => {
  it("is the middle value of an odd count and the mean of the two middle ones of an even count", () => {
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 3, 2])).toBe(2.5);
    expect(median([-5, 10, 10, 10, -5, 7])).toBe(8.5);
    expect(median([7])).toBe(7);
  });

  it("looks at the first `count` values only, and is NaN for none", () => {
    expect(median([1, 2, 3, 100, 200], 3)).toBe(2);
    expect(median([1, 2], 0)).toBeNaN();
  });

  it("agrees with sorting on many series, ties and runs included", () => {
    let seed = 7;
    const random = () => ((seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31);
    for (let round = 0; round < 2_000; round++) {
      const count = 1 + Math.floor(random() * 60);
      const spread = round % 3 === 0 ? 3 : 1_000; // every third series is mostly ties
      const values = Array.from({ length: count }, () => Math.floor(random() * spread) - spread / 2);
      if (round % 7 === 0) values.sort((a, b) => a - b); // already sorted
      const sorted = [...values].sort((a, b) => a - b);
      const expected = count % 2 === 1 ? sorted[(count - 1) / 2] : (sorted[count / 2 - 1]! + sorted[count / 2]!) / 2;
      expect(median(values), values.join(",")).toBe(expected);
    }
  });
});

describe("populationStddev", () => {
  it("divides by the count: 2, 4, 4, 4, 5, 5, 7, 9 has mean 5 and deviation 2", () => {
    expect(populationStddev(Float64Array.from([2, 4, 4, 4, 5, 5, 7, 9]), 8)).toBe(2);
  });

  it("is 0 for a constant series (to the last bits of its mean), and NaN for none", () => {
    expect(populationStddev(new Float64Array(168).fill(4), 168)).toBe(0);
    expect(populationStddev(new Float64Array(168).fill(13.14), 168)).toBeLessThan(1e-12);
    expect(populationStddev(new Float64Array(3), 0)).toBeNaN();
  });
});
