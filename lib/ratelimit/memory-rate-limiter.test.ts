import { describe, expect, it } from "vitest";
import { MemoryRateLimiter } from "./memory-rate-limiter";

const MINUTE = 60_000;
const PRO = 100;
const DESK = 1000;

function clock(start: number) {
  const c = { t: start, now: () => c.t };
  return c;
}

async function callMany(limiter: MemoryRateLimiter, key: string, n: number, max: number) {
  const results = [];
  for (let i = 0; i < n; i++) results.push(await limiter.limit(key, max, MINUTE));
  return results;
}

describe("MemoryRateLimiter", () => {
  it("passes 100 Pro requests and refuses the 101st", async () => {
    const c = clock(1_700_000_000_000);
    const limiter = new MemoryRateLimiter({ now: c.now });
    const results = await callMany(limiter, "key_pro", 101, PRO);
    expect(results.filter((r) => r.success)).toHaveLength(100);
    expect(results[99]).toMatchObject({ success: true, remaining: 0, limit: 100 });
    expect(results[100]).toMatchObject({ success: false, remaining: 0, limit: 100 });
  });

  it("passes 1000 Desk requests and refuses the 1001st", async () => {
    const limiter = new MemoryRateLimiter({ now: clock(1_700_000_000_000).now });
    const results = await callMany(limiter, "key_desk", 1001, DESK);
    expect(results.filter((r) => r.success)).toHaveLength(1000);
    expect(results[1000]?.success).toBe(false);
  });

  it("gives the whole limit back at the reset it reported (fixed window, the default)", async () => {
    const c = clock(1_700_000_040_000 + 17_300); // 17.3 s into a minute
    const limiter = new MemoryRateLimiter({ now: c.now });
    await callMany(limiter, "k", 100, PRO);
    const refused = await limiter.limit("k", PRO, MINUTE);
    expect(refused).toMatchObject({ success: false, reset: 1_700_000_040_000 + MINUTE });
    c.t = refused.reset;
    const again = await callMany(limiter, "k", 101, PRO);
    expect(again.filter((r) => r.success)).toHaveLength(100);
  });

  it("admits again once the window has slid, counting the previous window by weight (sliding window)", async () => {
    const c = clock(1_700_000_040_000); // a minute boundary
    const limiter = new MemoryRateLimiter({ now: c.now, algorithm: "slidingWindow" });
    await callMany(limiter, "k", 100, PRO);
    expect((await limiter.limit("k", PRO, MINUTE)).success).toBe(false);

    c.t += MINUTE + MINUTE / 2; // half-way through the next window: 50 of 100 still count
    const again = await callMany(limiter, "k", 51, PRO);
    expect(again.filter((r) => r.success)).toHaveLength(50);
    expect(again[0]?.remaining).toBe(49);
    expect(again[50]?.success).toBe(false);

    c.t += 2 * MINUTE; // both windows gone
    expect(await limiter.limit("k", PRO, MINUTE)).toMatchObject({ success: true, remaining: 99 });
  });

  it("keeps keys independent", async () => {
    const limiter = new MemoryRateLimiter({ now: clock(1_700_000_000_000).now });
    await callMany(limiter, "a", 100, PRO);
    expect((await limiter.limit("a", PRO, MINUTE)).success).toBe(false);
    expect(await limiter.limit("b", PRO, MINUTE)).toMatchObject({ success: true, remaining: 99 });
  });

  it.each(["fixedWindow", "slidingWindow"] as const)("evicts keys whose windows have passed (%s)", async (algorithm) => {
    const c = clock(1_700_000_000_000);
    const limiter = new MemoryRateLimiter({ now: c.now, algorithm });
    for (let i = 0; i < 500; i++) await limiter.limit(`key_${i}`, PRO, MINUTE);
    expect(limiter.size).toBe(500);
    c.t += 3 * MINUTE;
    await limiter.limit("fresh", PRO, MINUTE);
    expect(limiter.size).toBe(1);
  });

  it("folds a shared store's answers into its own counts for the fixed window only", () => {
    const c = clock(1_700_000_040_000);
    const fixed = new MemoryRateLimiter({ now: c.now });
    const shared = { success: true, limit: 3, remaining: 0, reset: 1_700_000_040_000 + MINUTE };
    expect(fixed.merge("k", shared, MINUTE)).toEqual(shared);
    expect(fixed.limitNow("k", 3, MINUTE).success).toBe(false); // resumes from the shared count
    const sliding = new MemoryRateLimiter({ now: c.now, algorithm: "slidingWindow" });
    expect(sliding.merge("k", shared, MINUTE)).toEqual(shared);
    expect(sliding.limitNow("k", 3, MINUTE).success).toBe(true); // its own counts only
  });

  it("rejects arguments the shared stores could not honour", async () => {
    const limiter = new MemoryRateLimiter();
    expect(() => limiter.limitNow("k", 1.5, MINUTE)).toThrow(RangeError);
    expect(() => limiter.limitNow("k", 10, 0)).toThrow(RangeError);
  });
});
