import { describe, expect, it } from "vitest";
import type { FundingSettlement } from "@/lib/market/model/funding-settlement";
import { chartPoints, intervalMarkers } from "./chart-points";

const settlement = (time: string, apr: number | null): FundingSettlement => ({
  exchange: "okx",
  market: "BTC/USDT:USDT",
  symbol: "BTC",
  time,
  funding_rate: 0.0001,
  funding_interval_hours: apr === null ? null : 8,
  apr,
  source: "observed",
});

describe("chartPoints", () => {
  it("plots annualised settlements in ascending epoch seconds, one per time", () => {
    const points = chartPoints([
      settlement("2026-11-23T08:00:00.000Z", 12),
      settlement("2026-11-23T00:00:00.000Z", 10.95),
      settlement("2026-11-23T08:00:00.000Z", 13),
      settlement("2026-11-23T16:00:00.000Z", null),
    ]);
    expect(points).toEqual([
      { time: Date.UTC(2026, 10, 23, 0) / 1000, value: 10.95 },
      { time: Date.UTC(2026, 10, 23, 8) / 1000, value: 13 },
    ]);
  });

  it("is empty without settlements", () => {
    expect(chartPoints([])).toEqual([]);
  });
});

describe("intervalMarkers", () => {
  const change = (effective_at: string, from_hours: number, to_hours: number) => ({
    exchange: "okx",
    market: "BTC/USDT:USDT",
    symbol: "BTC",
    effective_at,
    from_hours,
    to_hours,
    source: "schedule" as const,
    detected_at: effective_at,
  });
  const points = [
    { time: Date.UTC(2026, 10, 23, 0) / 1000, value: 10 },
    { time: Date.UTC(2026, 10, 23, 8) / 1000, value: 11 },
    { time: Date.UTC(2026, 10, 23, 12) / 1000, value: 12 },
  ];

  it("puts each change on the first settlement paid at the new interval, or on the last point after them all", () => {
    expect(intervalMarkers(points, [change("2026-11-23T08:00:00.000Z", 8, 4), change("2026-11-23T13:00:00.000Z", 4, 1)])).toEqual([
      { time: Date.UTC(2026, 10, 23, 8) / 1000, text: "8h → 4h" },
      { time: Date.UTC(2026, 10, 23, 12) / 1000, text: "4h → 1h" },
    ]);
    expect(intervalMarkers(points, [change("2026-11-23T04:30:00.000Z", 8, 4)])).toEqual([{ time: Date.UTC(2026, 10, 23, 8) / 1000, text: "8h → 4h" }]);
  });

  it("has nothing to mark without a line", () => {
    expect(intervalMarkers([], [change("2026-11-23T08:00:00.000Z", 8, 4)])).toEqual([]);
  });
});
