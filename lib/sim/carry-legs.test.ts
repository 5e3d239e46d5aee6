import { describe, expect, it } from "vitest";
import { rankCarryOpportunities } from "@/lib/market/carry/carry-pairs";
import { makeSnapshot } from "@/tests/support/market/make-snapshot";
import { dailyBorrow, makeSpot } from "@/tests/support/market/make-spot";
import { carryProjectedLegs } from "./carry-legs";
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

