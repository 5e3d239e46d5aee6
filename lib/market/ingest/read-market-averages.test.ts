import { describe, expect, it } from "vitest";
import { makeSnapshot } from "@/tests/support/market/make-snapshot";
import { marketKey } from "../model/market-average";
import { observedAverages } from "@/tests/support/market/observed-averages";
import { liveSumsAfter, type RoundAverageSums, type WindowSums } from "./read-market-averages";

const HOUR = 3_600_000;
const now = Date.UTC(2026, 8, 27, 13, 30);
const current = Math.floor(now / HOUR) * HOUR;
const sums = (dayApr: number, daySamples: number, weekApr: number, weekSamples: number): WindowSums => ({ dayApr, daySamples, weekApr, weekSamples });
const round = (settled: Map<string, WindowSums>, live: Map<string, WindowSums>): RoundAverageSums => ({
  settled,
  live,
  weekFrom: current - 167 * HOUR,
  dayFrom: current - 23 * HOUR,
  to: current + HOUR,
});

describe("roundAverages", () => {
  // 0.0001 a settlement every 8 hours: 10.95 % a year.
  const observed = makeSnapshot({ exchange: "binance", observedAt: now });
  const key = marketKey("binance", observed.market);
  const apr = ((0.0001 * 8760) / 8) * 100;

  it("adds a market's settled hours, its last two hours and its observation", () => {
    const averages = observedAverages(round(new Map([[key, sums(20, 2, 70, 7)]]), new Map([[key, sums(8, 1, 8, 1)]])), [observed]);
    expect(averages.get(key)!.day).toBeCloseTo((20 + 8 + apr) / 4, 12);
    expect(averages.get(key)!.week).toBeCloseTo((70 + 8 + apr) / 9, 12);
  });

  it("takes either part alone, and leaves the stored sums as they were", () => {
    const settled = new Map([[key, sums(20, 2, 70, 7)]]);
    expect(observedAverages(round(settled, new Map()), [observed]).get(key)!.week).toBeCloseTo((70 + apr) / 8, 12);
    expect(observedAverages(round(new Map(), new Map([[key, sums(8, 1, 8, 1)]])), [observed]).get(key)!.day).toBeCloseTo((8 + apr) / 2, 12);
    expect(settled.get(key)).toEqual(sums(20, 2, 70, 7));
  });

  it("averages a market with no stored hours on its observation, and leaves out one with neither", () => {
    const unrated = makeSnapshot({ exchange: "okx", fundingRate: null });
    const averages = observedAverages(round(new Map(), new Map()), [observed, unrated]);
    expect(averages.get(key)).toEqual({ day: apr, week: apr });
    expect(averages.has(marketKey("okx", unrated.market))).toBe(false);
  });

  it("counts an observation outside the day in the week only, and none outside the week", () => {
    const twoDaysAgo = makeSnapshot({ exchange: "binance", observedAt: now - 48 * HOUR });
    const twoWeeksAgo = makeSnapshot({ exchange: "bybit", observedAt: now - 14 * 24 * HOUR });
    const averages = observedAverages(round(new Map([[key, sums(20, 2, 70, 7)]]), new Map()), [twoDaysAgo, twoWeeksAgo]);
    expect(averages.get(key)).toEqual({ day: 10, week: (70 + apr) / 8 });
    expect(averages.has(marketKey("bybit", twoWeeksAgo.market))).toBe(false);
  });
});

describe("liveSumsAfter", () => {
  const observed = makeSnapshot({ exchange: "binance", observedAt: now });
  const key = marketKey("binance", observed.market);
  const apr = ((0.0001 * 8760) / 8) * 100;

  it("adds each observation of the last two hours to its market's sums, as the fold stores it, in a copy", () => {
    const live = new Map([[key, sums(8, 1, 8, 1)]]);
    const lastHour = makeSnapshot({ exchange: "okx", observedAt: now - HOUR });
    const after = liveSumsAfter(round(new Map(), live), [observed, lastHour]);
    expect(after.hour).toBe(current);
    expect(after.sums.get(key)).toEqual(sums(8 + apr, 2, 8 + apr, 2));
    expect(after.sums.get(marketKey("okx", lastHour.market))).toEqual(sums(apr, 1, apr, 1));
    expect(live.get(key)).toEqual(sums(8, 1, 8, 1));
  });

  it("leaves out observations without a rate or an interval and those before the last two hours, keeping the sums read when none is left", () => {
    const live = new Map([[key, sums(8, 1, 8, 1)]]);
    const unrated = makeSnapshot({ exchange: "okx", fundingRate: null, observedAt: now });
    const noInterval = makeSnapshot({ exchange: "bybit", fundingIntervalHours: null, observedAt: now });
    const older = makeSnapshot({ exchange: "binance", observedAt: now - 2 * HOUR });
    const after = liveSumsAfter(round(new Map(), live), [unrated, noInterval, older]);
    expect(after.sums).toBe(live);
  });
});
