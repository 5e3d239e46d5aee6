import { describe, expect, it } from "vitest";
import type { FundingSettlement } from "@/lib/market/funding-settlement";
import { chartPoints } from "./chart-points";

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
