import { describe, expect, it } from "vitest";
import { rankCarryOpportunities } from "@/lib/market/carry/carry-pairs";
import { makeSnapshot } from "@/tests/support/market/make-snapshot";
import { dailyBorrow, makeSpot } from "@/tests/support/market/make-spot";
import { borrowSettlements, carryProjectedLegs } from "./carry-legs";
import { simulateHistorical } from "./historical";
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


describe("borrowSettlements", () => {
  const H = 3_600_000;
  const t0 = Date.UTC(2026, 10, 1);

  it("charges each stored hour's rate at the hour's end; an hour not stored charges nothing", () => {
    // 8.76 % a year is 0.001 % an hour; hour 1 was not stored.
    const settlements = borrowSettlements([
      { time: t0, aprPct: 8.76 },
      { time: t0 + 2 * H, aprPct: 17.52 },
    ]);
    expect(settlements.map((s) => [s.time - t0, s.intervalHours])).toEqual([
      [H, 1],
      [3 * H, 1],
    ]);
    expect(settlements.map((s) => s.rate)).toEqual([-0.00001, -0.00002].map((r) => expect.closeTo(r, 15)));
  });

  it("replays a perp_spot day: the perpetual's negative funding collected by the long, the borrow paid by the short", () => {
    // Funding −0.0001 every 8 h (3 settlements a day: +1 USD each on 10,000 long); borrowing at
    // 8.76 % a year for 24 hours (0.1 USD an hour): 3 − 2.4 = 0.6 USD.
    const to = new Date(t0 + 24 * H);
    const perp = [8, 16, 24].map((h) => ({ time: t0 + h * H, rate: -0.0001, intervalHours: 8 }));
    const borrowed = borrowSettlements(Array.from({ length: 24 }, (_, h) => ({ time: t0 + h * H, aprPct: 8.76 })));
    const result = simulateHistorical(
      { exchange: "bybit", market: "BTC/USDT:USDT", takerFee: 0, settlements: perp },
      { exchange: "okx", market: "BTC/USDT", takerFee: 0, settlements: borrowed },
      { notionalUsd: 10_000, holdingDays: 1 },
      to,
    );
    expect(result.long).toMatchObject({ settlements: 3, funding_income_usd: 3 });
    expect(result.short).toMatchObject({ settlements: 24, funding_income_usd: -2.4, funding_interval_hours: 1 });
    expect(result.funding_income_usd).toBe(0.6);
    // 3 of the 27 events paid.
    expect(result.paid_share).toBe(0.111111);
  });
});
