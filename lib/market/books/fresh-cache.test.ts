import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { DeadlineExceededError } from "../venues/connectors/with-deadline";
import { FreshCache } from "./fresh-cache";

// Fake timers move Date.now and setTimeout together: the clock, the freshness and the deadline.
beforeEach(() => {
  vi.useFakeTimers({ now: Date.parse("2026-11-24T12:00:00Z") });
});
afterEach(() => {
  vi.useRealTimers();
});

const cache = () => new FreshCache<string>({ freshMs: 2_000, deadlineMs: 3_000, label: (key) => `${key} book`, now: () => Date.now() });

/** A load that answers after `ms`, counting its calls. */
function slowLoad(ms: number, value = "book") {
  const load = vi.fn(() => new Promise<string>((resolve) => setTimeout(() => resolve(`${value} #${load.mock.calls.length}`), ms)));
  return load;
}

describe("FreshCache", () => {
  it("gives 50 concurrent callers of a cold key one load", async () => {
    const books = cache();
    const load = slowLoad(100);
    const waiting = Promise.all(Array.from({ length: 50 }, () => books.get("okx BTC", load)));
    await vi.advanceTimersByTimeAsync(100);
    expect(await waiting).toEqual(Array(50).fill("book #1"));
    expect(load).toHaveBeenCalledTimes(1);
  });

  it("serves a value for freshMs from when its load started, then loads again", async () => {
    const books = cache();
    const load = slowLoad(500);
    const first = books.get("okx BTC", load);
    await vi.advanceTimersByTimeAsync(500);
    expect(await first).toBe("book #1");
    // Loaded from t=0: still fresh at 1,999 ms, not at 2,000.
    await vi.advanceTimersByTimeAsync(1_499);
    expect(await books.get("okx BTC", load)).toBe("book #1");
    await vi.advanceTimersByTimeAsync(1);
    const second = books.get("okx BTC", load);
    await vi.advanceTimersByTimeAsync(500);
    expect(await second).toBe("book #2");
    expect(load).toHaveBeenCalledTimes(2);
  });

  it("keeps keys apart", async () => {
    const books = cache();
    const load = slowLoad(10);
    const both = Promise.all([books.get("okx BTC", load), books.get("bybit BTC", load)]);
    await vi.advanceTimersByTimeAsync(10);
    await both;
    expect(load).toHaveBeenCalledTimes(2);
  });

  it("rejects everyone waiting on a load past the deadline, and drops its late answer", async () => {
    const books = cache();
    const load = slowLoad(5_000);
    const a = books.get("okx BTC", load);
    await vi.advanceTimersByTimeAsync(1_000);
    const b = books.get("okx BTC", load);
    const outcomes = Promise.allSettled([a, b]);
    await vi.advanceTimersByTimeAsync(2_000);
    const [ra, rb] = await outcomes;
    // Both fail at 3 s after the load started, the one that joined late too.
    for (const outcome of [ra, rb]) {
      expect(outcome.status).toBe("rejected");
      expect((outcome as PromiseRejectedResult).reason).toBeInstanceOf(DeadlineExceededError);
      expect(String((outcome as PromiseRejectedResult).reason)).toContain("okx BTC book timed out after 3000 ms");
    }
    expect(load).toHaveBeenCalledTimes(1);
    // The first load answers at 5 s, too late to be kept: the next request loads again.
    await vi.advanceTimersByTimeAsync(2_000);
    const quick = vi.fn(async () => "fresh");
    expect(await books.get("okx BTC", quick)).toBe("fresh");
    expect(quick).toHaveBeenCalledTimes(1);
  });

  it("never serves an older value in place of a failed load", async () => {
    const books = cache();
    expect(await books.get("okx BTC", async () => "old")).toBe("old");
    await vi.advanceTimersByTimeAsync(2_000);
    await expect(books.get("okx BTC", async () => Promise.reject(new Error("venue down")))).rejects.toThrow("venue down");
    await expect(books.get("okx BTC", () => Promise.reject(new Error("still down")))).rejects.toThrow("still down");
  });

  it("rejects a load that throws before returning a promise, and keeps no pending entry", async () => {
    const books = cache();
    await expect(
      books.get("okx BTC", () => {
        throw new Error("bad symbol");
      }),
    ).rejects.toThrow("bad symbol");
    expect(await books.get("okx BTC", async () => "next")).toBe("next");
  });
});
