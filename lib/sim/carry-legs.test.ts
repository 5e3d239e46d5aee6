import { describe, expect, it } from "vitest";
import { rankCarryOpportunities } from "@/lib/market/carry/carry-pairs";
import { makeSnapshot } from "@/tests/support/market/make-snapshot";
import { dailyBorrow, makeSpot } from "@/tests/support/market/make-spot";
import { borrowedSpotSettlements, carryProjectedLegs } from "./carry-legs";
import { simulateProjected } from "./projected";

const observedAt = Date.UTC(2026, 8, 27, 13, 30);
// 0.01 % a day: 3.65 % a year.
const spot = makeSpot({ exchange: "okx", borrow: dailyBorrow() });
const itemOf = (rate: number, type: "spot_perp" | "perp_spot") =>
  rankCarryOpportunities([makeSnapshot({ exchange: "bybit", fundingRate: rate, fundingIntervalHours: 8, markPrice: 100, observedAt })], [spot]).find((i) => i.type === type)!;
const params = { notionalUsd: 10_000, holdingDays: 7, feeBps: 0, slippageBps: 0 };

describe("carryProjectedLegs", () => {
  it("holds spot as a leg paying nothing against the short perpetual (spot_perp)", () => {
    const { long, short } = carryProjectedLegs(itemOf(0.0001, "spot_perp"), { spot: 0.001, perp: 0.0005 });
    expect(long).toEqual({ exchange: "okx", market: "BTC/USDT", fundingRate: 0, intervalHours: 1, takerFee: 0.001 });
    expect(short).toMatchObject({ exchange: "bybit", fundingRate: 0.0001, intervalHours: 8, takerFee: 0.0005 });
    // 21 settlements of 0.01 % on 10,000 USD in 7 days: 21 USD; the spot leg nothing.
    const result = simulateProjected(long, short, params);
    expect([result.long.funding_income_usd, result.short.funding_income_usd]).toEqual([0, 21]);
  });

  it("charges borrowed spot its borrow rate every hour as the short side (perp_spot)", () => {
    const { long, short } = carryProjectedLegs(itemOf(-0.0002, "perp_spot"), { spot: 0.001, perp: 0.0005 });
    expect(long).toMatchObject({ exchange: "bybit", fundingRate: -0.0002, intervalHours: 8 });
    expect(short.intervalHours).toBe(1);
    expect(short.fundingRate).toBeCloseTo(-0.0365 / 8760, 15);
    // The long perpetual receives 0.02 % × 21 = 42 USD; 168 hours of 3.65 % a year on 10,000 USD cost 7 USD.
    const result = simulateProjected(long, short, params);
    expect(result.long.funding_income_usd).toBe(42);
    expect(result.short.funding_income_usd).toBeCloseTo(-7, 2);
  });
});

describe("borrowedSpotSettlements", () => {
  const H = 3_600_000;
  const t0 = Date.UTC(2026, 10, 1);
  it("charges each whole hour the rate in force at its start, from the first known rate on", () => {
    // 8.76 % a year is 0.001 % an hour; from hour 2 on, 17.52 %.
    const points = [
      { time: t0 + H, annualPct: 8.76 },
      { time: t0 + 2 * H, annualPct: 17.52 },
    ];
    const { settlements, coveredFrom } = borrowedSpotSettlements(points, t0, t0 + 4 * H);
    expect(coveredFrom).toBe(t0 + H);
    // Hour 0 has no known rate; hour 1 at 8.76 %; hours 2 and 3 at 17.52 %.
    expect(settlements.map((s) => [s.time - t0, s.intervalHours])).toEqual([
      [2 * H, 1],
      [3 * H, 1],
      [4 * H, 1],
    ]);
    expect(settlements.map((s) => s.rate)).toEqual([-0.00001, -0.00002, -0.00002].map((r) => expect.closeTo(r, 15)));
  });

  it("has nothing to charge without a known rate", () => {
    expect(borrowedSpotSettlements([], t0, t0 + 5 * H)).toEqual({ settlements: [], coveredFrom: null });
  });
});
