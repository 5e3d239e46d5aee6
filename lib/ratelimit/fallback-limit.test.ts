import { describe, expect, it } from "vitest";
import { fallbackLimit } from "./fallback-limit";

describe("fallbackLimit", () => {
  it("is the whole limit for one server", () => {
    expect(fallbackLimit(100, 1)).toBe(100);
    expect(fallbackLimit(1000, 1)).toBe(1000);
  });

  it("divides the limit among the live servers, never exceeding it together", () => {
    expect(fallbackLimit(100, 2)).toBe(50);
    expect(fallbackLimit(100, 3)).toBe(33);
    expect(fallbackLimit(1000, 7)).toBe(142);
    for (const servers of [1, 2, 3, 4, 6, 7, 9, 11, 16]) {
      for (const limit of [20, 100, 1000]) expect(fallbackLimit(limit, servers) * servers).toBeLessThanOrEqual(limit);
    }
  });

  it("leaves every server at least one request", () => {
    expect(fallbackLimit(10, 40)).toBe(1);
    expect(fallbackLimit(1, 2)).toBe(1);
  });

  it("reads a count that is not a number of servers as this process alone", () => {
    for (const servers of [0, -1, Number.NaN, Number.POSITIVE_INFINITY]) expect(fallbackLimit(100, servers)).toBe(100);
    expect(fallbackLimit(100, 2.7)).toBe(50);
  });
});
