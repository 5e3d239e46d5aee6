import { describe, expect, it } from "vitest";
import { VENUE_IDS } from "@/lib/market/model/types";
import { SharedBuckets, VenueBudgets } from "@/lib/market/venues/venue-budget";
import { VENUE_REQUEST_LIMITS } from "@/lib/market/venues/venue-request-limits";
import { backfillBudget, endpointBudget, RequestBudget, type BudgetClock } from "./request-budget";

/** A clock that moves only when someone sleeps on it. */
function fakeClock(): BudgetClock & { slept: number[] } {
  let now = 1_000_000;
  const slept: number[] = [];
  return {
    slept,
    now: () => now,
    sleep: async (ms) => {
      slept.push(ms);
      now += ms;
    },
  };
}

describe("a venue's request budget", () => {
  it("lets a burst through at once, then paces requests at its rate", async () => {
    const clock = fakeClock();
    const budget = new RequestBudget(2, 2, clock);
    const start = clock.now();
    for (let i = 0; i < 10; i++) await budget.take();
    // Two at once, then eight more at 2/s: four seconds.
    expect(clock.now() - start).toBe(4_000);
    expect(clock.slept.every((ms) => ms === 500)).toBe(true);
  });

  it("serves concurrent walks in turn, never above the rate", async () => {
    const clock = fakeClock();
    const budget = new RequestBudget(5, 1, clock);
    const times: number[] = [];
    await Promise.all(Array.from({ length: 11 }, () => budget.take().then(() => times.push(clock.now()))));
    const start = times[0]!;
    expect(times.at(-1)! - start).toBe(2_000);
    for (let i = 1; i < times.length; i++) expect(times[i]! - times[i - 1]!).toBe(200);
  });

  it("refills while idle up to its burst only", async () => {
    const clock = fakeClock();
    const budget = new RequestBudget(1, 3, clock);
    for (let i = 0; i < 3; i++) await budget.take();
    expect(budget.waitMs()).toBe(1_000);
    await clock.sleep(60_000);
    expect(budget.waitMs()).toBe(0);
    for (let i = 0; i < 3; i++) await budget.take();
    expect(budget.waitMs()).toBe(1_000);
  });

  it("keeps one endpoint bucket per venue in the process, at the reader's rate", () => {
    const a = endpointBudget("budget-test-venue", 10);
    expect(endpointBudget("budget-test-venue", 10)).toBe(a);
    expect(a.ratePerSecond).toBe(10);
    expect(endpointBudget("budget-test-other", 10)).not.toBe(a);
    expect(() => new RequestBudget(0, 1)).toThrow();
  });

  it("draws a backfill request from the venue's shared budget, leaving its live reserve", async () => {
    const clock = fakeClock();
    const budgets = new VenueBudgets(SharedBuckets.buffer(VENUE_IDS.length), VENUE_REQUEST_LIMITS, clock);
    const limit = VENUE_REQUEST_LIMITS.bybit;
    const reserve = Math.floor(limit.burst / 2);
    const shared = backfillBudget("bybit", 1_000, budgets);
    // From a full bucket the backfill takes down to the reserve at once; what is left is the live requests'.
    for (let i = 0; i < limit.burst - reserve; i++) await shared.take();
    expect(clock.slept).toEqual([]);
    expect(budgets.tokens("bybit")).toBe(reserve);
    for (let i = 0; i < reserve; i++) await budgets.take("bybit", "live");
    expect(clock.slept).toEqual([]);
    // The next backfill request waits for the bucket to refill above the reserve again.
    await shared.take();
    expect(clock.slept.reduce((a, b) => a + b, 0)).toBeGreaterThanOrEqual(((reserve + 1) * 1_000) / limit.requestsPerSecond - 1);
    expect(budgets.draws("bybit")).toBe(limit.burst + 1);
  });
});
