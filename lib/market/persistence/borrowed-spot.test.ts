import { describe, expect, it } from "vitest";
import { marketKey } from "../model/market-average";
import { borrowedSpot, borrowedSpotSeries } from "./borrowed-spot";
import { HELD_SPOT } from "./held-spot";
import { computePairRecord, HOURS_30D, HOURS_7D, orientPersistence, type MarketSeries } from "./pair-persistence";

const HOUR = 3_600_000;
const THROUGH = Date.UTC(2026, 10, 21, 16);
const START_30D = THROUGH - HOURS_30D * HOUR;

describe("borrowedSpot", () => {
  it("is one market per venue and asset, under no venue's id", () => {
    const keys = [borrowedSpot("binance", "BTC"), borrowedSpot("binance", "ETH"), borrowedSpot("okx", "BTC"), HELD_SPOT].map((m) => marketKey(m.exchange, m.market));
    expect(new Set(keys).size).toBe(4);
    expect(borrowedSpot("binance", "BTC")).toEqual(borrowedSpot("binance", "BTC"));
  });
});

describe("borrowedSpotSeries", () => {
  it("earns minus the stored APR in each stored hour and is charged it per hour; other hours are missing", () => {
    // 8.76 % a year is 0.001 % an hour.
    const series = borrowedSpotSeries([
      { hour: 0, aprPct: 5 },
      { hour: HOURS_30D - HOURS_7D, aprPct: 8.76 },
      { hour: HOURS_30D - 1, aprPct: 0 },
      { hour: HOURS_30D, aprPct: 3 },
      { hour: -1, aprPct: 3 },
    ]);
    expect(series.apr[0]).toBe(-5);
    expect(series.apr[1]).toBeNaN();
    expect(series.apr[HOURS_30D - HOURS_7D]).toBe(-8.76);
    expect(series.paid[0]).toBeCloseTo(-0.00001, 15);
    expect(series.paid[1]).toBeNaN();
    expect(Object.is(series.apr[HOURS_30D - 1], 0)).toBe(true);
    expect(Object.is(series.paid[HOURS_7D - 1], 0)).toBe(true);
    expect(series.apr.length).toBe(HOURS_30D);
  });

  it("makes a perp_spot's persistence with the perpetual long: minus funding minus borrow", () => {
    // Funding −20 % a year (the long perpetual collects 20 %), borrowing at 5 %: the carry earns 15 %;
    // an hour without a stored borrow rate (hour 700) ends the run.
    const perp: MarketSeries = { apr: new Float64Array(HOURS_30D).fill(-20), paid: new Float64Array(HOURS_7D).fill(-20 / 100 / 8760) };
    const borrowed = borrowedSpotSeries(Array.from({ length: HOURS_30D }, (_, hour) => ({ hour, aprPct: 5 })).filter(({ hour }) => hour !== 700));
    const persistence = orientPersistence(computePairRecord(perp, borrowed, THROUGH), true, THROUGH);
    expect(persistence).toEqual({
      as_of: new Date(THROUGH).toISOString(),
      positive_since: new Date(START_30D + 701 * HOUR).toISOString(),
      apr_median_7d: 15,
      apr_median_30d: 15,
      paid_share_7d: 1,
      apr_stddev_7d: 0,
    });
  });
});
