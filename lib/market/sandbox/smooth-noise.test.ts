import { describe, expect, it } from "vitest";
import { hashText, mixKeys, unitOf } from "./random";
import { SMOOTH_NOISE_MAX_STEP, smoothNoise } from "./smooth-noise";

describe("seeded randomness", () => {
  it("is a pure function of its keys", () => {
    expect(hashText("sandbox")).toBe(hashText("sandbox"));
    expect(hashText("sandbox")).not.toBe(hashText("sandboy"));
    expect(unitOf(1, 2, 3, 4)).toBe(unitOf(1, 2, 3, 4));
    expect(mixKeys(1, 2)).not.toBe(mixKeys(2, 1));
  });

  it("spreads draws evenly over [0, 1)", () => {
    const draws = Array.from({ length: 20_000 }, (_, i) => unitOf(7, i));
    expect(Math.min(...draws)).toBeGreaterThanOrEqual(0);
    expect(Math.max(...draws)).toBeLessThan(1);
    const buckets = new Array<number>(10).fill(0);
    for (const u of draws) buckets[Math.floor(u * 10)] = (buckets[Math.floor(u * 10)] ?? 0) + 1;
    for (const count of buckets) expect(Math.abs(count - 2_000)).toBeLessThan(200);
  });
});

describe("smoothNoise", () => {
  const start = 29_000_000; // a minute in 2025

  it("stays in [−1, 1] and moves at most SMOOTH_NOISE_MAX_STEP a minute", () => {
    let largest = 0;
    let largestStep = 0;
    for (const key of [1, 2, 3, hashText("BTC")]) {
      let previous = smoothNoise(key, start);
      for (let minute = start + 1; minute < start + 3 * 1440; minute += 1) {
        const value = smoothNoise(key, minute);
        largest = Math.max(largest, Math.abs(value));
        largestStep = Math.max(largestStep, Math.abs(value - previous));
        previous = value;
      }
    }
    expect(largest).toBeLessThanOrEqual(1);
    expect(largest).toBeGreaterThan(0.3);
    expect(largestStep).toBeLessThanOrEqual(SMOOTH_NOISE_MAX_STEP + 1e-12);
    expect(largestStep).toBeGreaterThan(0);
    expect(SMOOTH_NOISE_MAX_STEP).toBeLessThan(0.02);
  });

  it("wanders: a day apart moves far more than a minute apart", () => {
    let minuteSteps = 0;
    let daySteps = 0;
    for (let i = 0; i < 500; i += 1) {
      const minute = start + i * 37;
      minuteSteps += Math.abs(smoothNoise(5, minute + 1) - smoothNoise(5, minute));
      daySteps += Math.abs(smoothNoise(5, minute + 1440) - smoothNoise(5, minute));
    }
    expect(daySteps).toBeGreaterThan(30 * minuteSteps);
  });
});
