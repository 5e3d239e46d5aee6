import { describe, expect, it } from "vitest";
import { VENUE_IDS } from "../model/types";
import { drawToken, SharedBuckets, VenueBudgets, type BudgetClock, type BudgetPriority } from "./venue-budget";
import { liveReserve, VENUE_REQUEST_LIMITS } from "./venue-request-limits";

/** A clock that moves only when told to, or when someone sleeps on it (to the sleeper's wake-up time). */
function fakeClock(start = 1_800_000_000_000) {
  let now = start;
  const sleepers: { at: number; wake: () => void }[] = [];
  const clock: BudgetClock & { advance(ms: number): Promise<void>; drain(): Promise<void> } = {
    now: () => now,
    sleep: (ms) => new Promise<void>((resolve) => sleepers.push({ at: now + ms, wake: resolve })),
    // Wakes every sleeper due by now + ms, in time order, letting each one's follow-up run.
    advance: async (ms) => {
      const until = now + ms;
      for (;;) {
        await new Promise((resolve) => setImmediate(resolve));
        sleepers.sort((a, b) => a.at - b.at);
        const next = sleepers[0];
        if (!next || next.at > until) break;
        sleepers.shift();
        now = Math.max(now, next.at);
        next.wake();
      }
      now = until;
    },
    drain: async () => {
      for (let i = 0; i < 100_000 && sleepers.length > 0; i++) await clock.advance(Math.max(0, Math.min(...sleepers.map((s) => s.at)) - now));
    },
  };
  return clock;
}

const shape = { ratePerSecond: 2, burst: 4, reserve: 2 };

describe("a draw from a token bucket", () => {
  it("lets a full bucket's burst through at once, then books live requests one interval apart", () => {
    let zeroAt = 0;
    const now = 1_000_000_000;
    const waits: number[] = [];
    for (let i = 0; i < 6; i++) {
      const draw = drawToken(zeroAt, now, shape, "live");
      if (!draw.taken) throw new Error("a live draw always takes");
      zeroAt = draw.zeroAt;
      waits.push(draw.waitUs);
    }
    expect(waits).toEqual([0, 0, 0, 0, 500_000, 1_000_000]);
  });

  it("gives the backfill only what lies above the live reserve, and tells it how long until there is", () => {
    let zeroAt = 0;
    const now = 1_000_000_000;
    const taken: boolean[] = [];
    for (let i = 0; i < 4; i++) {
      const draw = drawToken(zeroAt, now, shape, "backfill");
      taken.push(draw.taken);
      if (draw.taken) zeroAt = draw.zeroAt;
      else expect(draw.waitUs).toBe(500_000);
    }
    // Burst 4, reserve 2: two for the backfill, the other two stay for live requests.
    expect(taken).toEqual([true, true, false, false]);
    const live = [drawToken(zeroAt, now, shape, "live")];
    expect(live[0]).toMatchObject({ taken: true, waitUs: 0 });
  });

  it("never lets more than burst + rate × time through, whoever draws", () => {
    const priorities: BudgetPriority[] = ["live", "backfill"];
    let zeroAt = 0;
    let now = 5_000_000_000;
    const start = now;
    let passed = 0;
    // A random mix of callers drawing as fast as the bucket lets them for 60 s.
    let seed = 7;
    const random = () => ((seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31);
    while (now - start < 60_000_000) {
      const draw = drawToken(zeroAt, now, shape, priorities[random() < 0.3 ? 0 : 1]!);
      if (draw.taken) {
        zeroAt = draw.zeroAt;
        now += draw.waitUs;
        passed += 1;
        expect(passed).toBeLessThanOrEqual(shape.burst + ((now - start) / 1e6) * shape.ratePerSecond);
      } else now += draw.waitUs;
      now += Math.floor(random() * 200_000);
    }
    expect(passed).toBeGreaterThan(60 * shape.ratePerSecond * 0.9);
  });
});

describe("shared buckets on a fake clock", () => {
  it("keeps live requests ahead of a backfill that has been drawing flat out", async () => {
    const clock = fakeClock();
    const buckets = new SharedBuckets(SharedBuckets.buffer(1), [shape], clock);
    let backfilled = 0;
    let stop = false;
    const backfill = (async () => {
      while (!stop) {
        await buckets.take(0, "backfill");
        backfilled += 1;
      }
    })();
    await clock.advance(10_000);
    // Flat out for 10 s: the rate's 20 plus the burst above the reserve.
    expect(backfilled).toBe(2 + 20);
    // Two live requests find the reserve at once.
    const start = clock.now();
    await buckets.take(0, "live");
    await buckets.take(0, "live");
    expect(clock.now()).toBe(start);
    // A third is the venue's own limit: it waits one interval, and the backfill waits behind it.
    const third = buckets.take(0, "live").then(() => clock.now());
    const before = backfilled;
    await clock.advance(500);
    expect(await third).toBe(start + 500);
    expect(backfilled).toBe(before);
    stop = true;
    await clock.advance(5_000);
    await backfill;
  });

  it("one venue's bucket is not another's", async () => {
    const clock = fakeClock();
    const budgets = new VenueBudgets(undefined, undefined, clock);
    const bitmex = VENUE_REQUEST_LIMITS.bitmex;
    for (let i = 0; i < bitmex.burst; i++) await budgets.take("bitmex", "live");
    expect(budgets.tokens("bitmex")).toBeCloseTo(0, 5);
    expect(budgets.tokens("bybit")).toBe(VENUE_REQUEST_LIMITS.bybit.burst);
    await budgets.take("bybit", "live");
    expect(clock.now()).toBe(1_800_000_000_000);
    expect(budgets.draws("bitmex")).toBe(bitmex.burst);
    expect(budgets.draws("bybit")).toBe(1);
  });

  it("draws every HIP-3 dex's requests from Hyperliquid's one bucket", async () => {
    const clock = fakeClock();
    const budgets = new VenueBudgets(undefined, undefined, clock);
    const { burst } = VENUE_REQUEST_LIMITS.hyperliquid;
    for (let i = 0; i < burst; i++) await budgets.take(i % 2 === 0 ? "hyperliquid:xyz" : "hyperliquid:km", "live");
    // The main dex finds the bucket the dexes emptied: its next request waits a second.
    expect(budgets.tokens("hyperliquid")).toBeCloseTo(0, 5);
    const next = budgets.take("hyperliquid", "live");
    await clock.advance(1_000);
    await next;
    expect(clock.now()).toBe(1_800_000_001_000);
    expect(budgets.draws("hyperliquid")).toBe(burst + 1);
    expect(budgets.draws("hyperliquid:para")).toBe(burst + 1);
  });

  it("refuses a bucket the backfill could never draw from", () => {
    expect(() => new SharedBuckets(SharedBuckets.buffer(1), [{ ratePerSecond: 1, burst: 2, reserve: 2 }])).toThrow();
    expect(() => new SharedBuckets(SharedBuckets.buffer(1), [{ ratePerSecond: 0, burst: 2, reserve: 1 }])).toThrow();
  });
});

describe("the venues' request limits", () => {
  it("names a source and leaves the backfill room above the live reserve for every venue", () => {
    for (const venue of VENUE_IDS) {
      const limit = VENUE_REQUEST_LIMITS[venue];
      expect(limit.requestsPerSecond, venue).toBeGreaterThan(0);
      expect(limit.source.length, venue).toBeGreaterThan(10);
      expect(liveReserve(limit), venue).toBeLessThan(limit.burst);
    }
  });
});
