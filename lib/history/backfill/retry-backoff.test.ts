import { describe, expect, it } from "vitest";
import { retryDelayMs } from "./retry-backoff";

describe("the backfill's retry backoff", () => {
  it("doubles from 30 s up to 6 h, half of each step random", () => {
    expect(retryDelayMs(1, () => 0)).toBe(15_000);
    expect(retryDelayMs(1, () => 1)).toBe(30_000);
    expect(retryDelayMs(2, () => 0)).toBe(30_000);
    expect(retryDelayMs(4, () => 1)).toBe(240_000);
    expect(retryDelayMs(30, () => 1)).toBe(6 * 3_600_000);
    expect(retryDelayMs(30, () => 0)).toBe(3 * 3_600_000);
  });

  it("spreads markets that failed together", () => {
    const delays = new Set(Array.from({ length: 50 }, () => retryDelayMs(3)));
    expect(delays.size).toBeGreaterThan(40);
    for (const delay of delays) expect(delay).toBeGreaterThanOrEqual(60_000);
  });
});
