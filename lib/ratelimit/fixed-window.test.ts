import { describe, expect, it } from "vitest";
import { fixedWindow, isFixedWindowExpired, mergeFixedWindow, type FixedWindowState } from "./fixed-window";
import { rateLimitHeaders } from "./rate-limit-headers";

const MINUTE = 60_000;
const START = 1_700_000_040_000; // a minute boundary

function run(state: FixedWindowState | undefined, now: number, max: number, n: number) {
  const results = [];
  for (let i = 0; i < n; i++) {
    const decision = fixedWindow(state, now, max, MINUTE);
    state = decision.state;
    results.push(decision.result);
  }
  return { state, results };
}

describe("fixedWindow", () => {
  it("admits max requests per window and reports the window's end as the reset", () => {
    const { results } = run(undefined, START + 17_300, 100, 101);
    expect(results.filter((r) => r.success)).toHaveLength(100);
    expect(results[0]).toEqual({ success: true, limit: 100, remaining: 99, reset: START + MINUTE });
    expect(results[99]).toMatchObject({ success: true, remaining: 0 });
    expect(results[100]).toEqual({ success: false, limit: 100, remaining: 0, reset: START + MINUTE });
  });

  it("gives the whole limit back to a client that waits exactly the Retry-After it was told", () => {
    const at = START + 17_300;
    const { state, results } = run(undefined, at, 100, 101);
    const { retryAfter } = rateLimitHeaders(results[100]!, at);
    expect(retryAfter).toBe(43); // 42.7 s rounded up
    const after = run(state, at + retryAfter! * 1000, 100, 101).results;
    expect(after.filter((r) => r.success)).toHaveLength(100);
    expect(after[100]?.success).toBe(false);
  });

  it("refuses until the last millisecond of the window and admits at its end", () => {
    const { state } = run(undefined, START, 3, 3);
    expect(fixedWindow(state, START + MINUTE - 1, 3, MINUTE).result.success).toBe(false);
    expect(fixedWindow(state, START + MINUTE, 3, MINUTE).result).toMatchObject({ success: true, remaining: 2, reset: START + 2 * MINUTE });
  });

  it("never resets a count when the clock steps back across a window edge", () => {
    const { state } = run(undefined, START + MINUTE + 5, 3, 3);
    const decision = fixedWindow(state, START + MINUTE - 5, 3, MINUTE);
    expect(decision.result).toMatchObject({ success: false, reset: START + 2 * MINUTE });
  });

  it("counts refused requests, as Upstash does, so a limit raised mid-window agrees with Redis", () => {
    const { state } = run(undefined, START, 1, 2); // one admitted, one refused
    expect(fixedWindow(state, START, 5, MINUTE).result).toMatchObject({ success: true, remaining: 2 });
  });

  it("starts over when the window length changes", () => {
    const { state } = run(undefined, START, 3, 3);
    expect(fixedWindow(state, START + 1, 3, 2 * MINUTE).result).toMatchObject({ success: true, remaining: 2 });
  });

  it("knows when a state can be dropped", () => {
    const state = fixedWindow(undefined, START + 5, 3, MINUTE).state;
    expect(isFixedWindowExpired(state, START + MINUTE - 1)).toBe(false);
    expect(isFixedWindowExpired(state, START + MINUTE)).toBe(true);
  });
});

describe("mergeFixedWindow", () => {
  const shared = (remaining: number, success = true) => ({ success, limit: 10, remaining, reset: START + MINUTE });

  it("takes the shared count when it is ahead (other processes counted too)", () => {
    const merged = mergeFixedWindow(undefined, shared(3), MINUTE);
    expect(merged.state).toEqual({ windowMs: MINUTE, window: START / MINUTE, count: 7 });
    expect(merged.result).toEqual(shared(3));
    // A fallback now resumes from 7, not from zero: three more, then refused.
    let state = merged.state;
    const fallback = [];
    for (let i = 0; i < 4; i++) {
      const decision = fixedWindow(state, START + 10, 10, MINUTE);
      state = decision.state;
      fallback.push(decision.result.success);
    }
    expect(fallback).toEqual([true, true, true, false]);
  });

  it("keeps its own count when it is ahead (requests admitted from memory the shared store never saw)", () => {
    const own = { windowMs: MINUTE, window: START / MINUTE, count: 9 };
    // The shared store saw 2 (this one included): this process's 9 + this request = 10, the last slot.
    expect(mergeFixedWindow(own, shared(8), MINUTE).result).toMatchObject({ success: true, remaining: 0 });
    const full = { ...own, count: 10 };
    expect(mergeFixedWindow(full, shared(8), MINUTE).result).toMatchObject({ success: false, remaining: 0 });
  });

  it("passes a refusal through and records the window as full", () => {
    const merged = mergeFixedWindow(undefined, shared(0, false), MINUTE);
    expect(merged.result).toMatchObject({ success: false, remaining: 0 });
    expect(merged.state.count).toBe(11);
  });

  it("ignores its count of an earlier window", () => {
    const old = { windowMs: MINUTE, window: START / MINUTE - 1, count: 10 };
    expect(mergeFixedWindow(old, shared(9), MINUTE).result).toMatchObject({ success: true, remaining: 9 });
  });
});
