import { describe, expect, it } from "vitest";
import { isSlidingWindowExpired, slidingWindow, type SlidingWindowState } from "./sliding-window";

const MINUTE = 60_000;
const T0 = 1_700_000_040_000; // exactly on a minute boundary

function run(times: number[], max: number, windowMs = MINUTE) {
  let state: SlidingWindowState | undefined;
  return times.map((t) => {
    const decision = slidingWindow(state, t, max, windowMs);
    state = decision.state;
    return decision;
  });
}

describe("slidingWindow", () => {
  it("admits max requests in a window and refuses the next one", () => {
    const decisions = run(Array.from({ length: 101 }, (_, i) => T0 + i * 10), 100);
    expect(decisions.slice(0, 100).every((d) => d.result.success)).toBe(true);
    expect(decisions.map((d) => d.result.remaining).slice(0, 3)).toEqual([99, 98, 97]);
    expect(decisions[99]?.result.remaining).toBe(0);
    expect(decisions[100]?.result).toEqual({ success: false, limit: 100, remaining: 0, reset: T0 + MINUTE });
  });

  it("does not count refused requests", () => {
    const decisions = run([T0, T0 + 1, T0 + 2, T0 + 3], 2);
    expect(decisions.map((d) => d.result.success)).toEqual([true, true, false, false]);
    expect(decisions[3]?.state.current).toBe(2);
  });

  it("weighs the previous window by the share of it still inside the sliding window", () => {
    const full = run(Array.from({ length: 100 }, () => T0), 100);
    const state = full.at(-1)?.state;
    // 25 % into the next window, 75 of the previous window's 100 requests still count.
    const quarter = slidingWindow(state, T0 + MINUTE + MINUTE / 4, 100, MINUTE);
    expect(quarter.result).toEqual({ success: true, limit: 100, remaining: 100 - 75 - 1, reset: T0 + 2 * MINUTE });
    // At the very start of the next window the previous one still counts in full.
    expect(slidingWindow(state, T0 + MINUTE, 100, MINUTE).result.success).toBe(false);
    // The weighted count is floored, like Upstash's Lua: 1 ms in, floor(99.998…) = 99.
    expect(slidingWindow(state, T0 + MINUTE + 1, 100, MINUTE).result).toMatchObject({ success: true, remaining: 0 });
  });

  it("forgets everything two windows later", () => {
    const [first] = run([T0], 1);
    const later = slidingWindow(first?.state, T0 + 2 * MINUTE, 1, MINUTE);
    expect(later.result).toMatchObject({ success: true, remaining: 0 });
    expect(later.state).toEqual({ windowMs: MINUTE, window: (T0 + 2 * MINUTE) / MINUTE, current: 1, previous: 0 });
  });

  it("reports reset as the end of the current fixed window, like Upstash", () => {
    const [decision] = run([T0 + 12_345], 10);
    expect(decision?.result.reset).toBe(T0 + MINUTE);
  });

  it("refuses everything when max is 0", () => {
    expect(slidingWindow(undefined, T0, 0, MINUTE).result).toMatchObject({ success: false, remaining: 0 });
  });

  it("never resets counts when the clock steps back across a window edge", () => {
    const decisions = run([T0 + MINUTE, T0 + MINUTE, T0 + MINUTE - 5], 2);
    expect(decisions.map((d) => d.result.success)).toEqual([true, true, false]);
  });

  it("starts afresh when the window size changes", () => {
    const [first] = run([T0], 1);
    expect(slidingWindow(first?.state, T0, 1, 1_000).result.success).toBe(true);
  });

  it("marks a state expired once both of its windows are out of reach", () => {
    const state: SlidingWindowState = { windowMs: MINUTE, window: T0 / MINUTE, current: 3, previous: 0 };
    expect(isSlidingWindowExpired(state, T0 + 2 * MINUTE - 1)).toBe(false);
    expect(isSlidingWindowExpired(state, T0 + 2 * MINUTE)).toBe(true);
  });
});
