import { describe, expect, it } from "vitest";
import { maxInSpan, WindowCounts } from "./window-counts";

describe("the soak's per-key window counts", () => {
  it("attributes an answer to the fixed window its X-RateLimit-Reset closes", () => {
    const counts = new WindowCounts(60_000);
    // Window [120 s, 180 s) ends at 180 s; the header rounds up, so 180 is that window's reset.
    for (let i = 0; i < 3; i++) counts.admitted(1, 180, 170_000 + i);
    counts.admitted(1, 240, 181_000); // the next window
    counts.admitted(2, 180, 170_000);
    expect(counts.stats(1).maxInWindow).toBe(3);
    expect(counts.stats(2).maxInWindow).toBe(1);
    expect(counts.stats(3)).toEqual({ maxInWindow: 0, maxInSpan: 0 });
    expect(counts.keys().sort()).toEqual([1, 2]);
  });

  it("counts a sliding span across a window edge", () => {
    const counts = new WindowCounts(60_000);
    for (let i = 0; i < 4; i++) counts.admitted(1, 180, 175_000 + i);
    for (let i = 0; i < 4; i++) counts.admitted(1, 240, 185_000 + i);
    expect(counts.stats(1)).toEqual({ maxInWindow: 4, maxInSpan: 8 });
  });

  it("finds the most timestamps in any half-open span", () => {
    expect(maxInSpan([], 10)).toBe(0);
    expect(maxInSpan([0, 10, 20], 10)).toBe(1);
    expect(maxInSpan([20, 0, 5, 9, 10, 11], 10)).toBe(4); // 5, 9, 10, 11
  });
});
