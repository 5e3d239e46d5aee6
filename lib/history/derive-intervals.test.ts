import { describe, expect, it } from "vitest";
import type { HistoryMarket, HistorySettlement } from "./history-types";
import { fillIntervals, historyIntervals, intervalChangesFromHistory } from "./derive-intervals";
import { historyJson, longSeries } from "@/tests/fixtures/history/read-history-fixture";

const HL: HistoryMarket = { exchange: "hyperliquid", market: "BTC/USDC:USDC", venueMarketId: "BTC", base: "BTC" };
const BINANCE: HistoryMarket = { exchange: "binance", market: "BTC/USDT:USDT", venueMarketId: "BTCUSDT", base: "BTC" };

function hyperliquid2023(): HistorySettlement[] {
  return historyJson<{ time: number; fundingRate: string }[]>("hyperliquid/fundingHistory_BTC_startTime-only_2023-07-17_1038rows.json").map(
    (row) => ({ time: row.time, rate: Number(row.fundingRate), intervalHours: null }),
  );
}

function binanceYear(): HistorySettlement[] {
  return longSeries("binance/longseries_BTCUSDT_2025-08-21_2026-08-21_zushen168.csv", "iso").map((row) => ({
    time: row.time,
    rate: Number(row.rate),
    intervalHours: null,
  }));
}

describe("historyIntervals", () => {
  it("adds the intervals a venue used in the past to today's", () => {
    expect(historyIntervals("hyperliquid")).toEqual([1, 8]);
    expect(historyIntervals("binance")).toEqual([1, 2, 4, 8]);
  });
});

describe("fillIntervals", () => {
  it("finds Hyperliquid's change from 8-hourly to hourly funding on 2023-06-08", () => {
    const filled = fillIntervals(hyperliquid2023(), historyIntervals("hyperliquid"));
    const change = Date.UTC(2023, 5, 8);
    expect(filled.filter((settlement) => settlement.time < change + 60_000).every((settlement) => settlement.intervalHours === 8)).toBe(true);
    expect(filled.filter((settlement) => settlement.time > change + 60_000).every((settlement) => settlement.intervalHours === 1)).toBe(true);
    expect(intervalChangesFromHistory(HL, filled)).toEqual([
      {
        exchange: "hyperliquid",
        market: "BTC/USDC:USDC",
        base: "BTC",
        effectiveAt: new Date("2023-06-08T00:00:00.000Z"),
        fromHours: 8,
        toHours: 1,
        source: "history",
        detectedAt: new Date("2023-06-08T01:00:00.000Z"),
      },
    ]);
  });

  it("reads a year of Binance BTCUSDT as 8-hourly despite the millisecond jitter of its stamps", () => {
    const year = binanceYear();
    expect(year.some((settlement) => settlement.time % 1000 !== 0)).toBe(true);
    const filled = fillIntervals(year, historyIntervals("binance"));
    expect(filled.every((settlement) => settlement.intervalHours === 8)).toBe(true);
    expect(intervalChangesFromHistory(BINANCE, filled)).toEqual([]);
  });

  it("treats a missing settlement as a gap, not a 16-hour interval", () => {
    const year = binanceYear();
    const withGap = [...year.slice(0, 100), ...year.slice(101)];
    const filled = fillIntervals(withGap, historyIntervals("binance"));
    expect(filled[100]?.intervalHours).toBe(8);
    expect(intervalChangesFromHistory(BINANCE, filled)).toEqual([]);
  });

  it("keeps a 4-hour interval across one missing settlement but takes a confirmed change to 8 hours", () => {
    // Every fourth hourly Hyperliquid stamp after the change: a real 4-hourly cadence with its jitter.
    const hourly = hyperliquid2023().filter((settlement) => settlement.time > Date.UTC(2023, 5, 9));
    const fourHourly = hourly.filter((_, index) => index % 4 === 0);
    const oneMissing = [...fourHourly.slice(0, 20), ...fourHourly.slice(21, 40)];
    const gapFilled = fillIntervals(oneMissing, [1, 2, 4, 8]);
    expect(gapFilled.every((settlement) => settlement.intervalHours === 4)).toBe(true);

    const thenEight = [...fourHourly.slice(0, 20), ...fourHourly.slice(20, 60).filter((_, index) => index % 2 === 0)];
    const changed = fillIntervals(thenEight, [1, 2, 4, 8]);
    const changes = intervalChangesFromHistory(BINANCE, changed);
    expect(changes.map((change) => [change.fromHours, change.toHours, change.effectiveAt.getTime()])).toEqual([
      // The first 8-hour interval began at the last settlement still 4 hours after the one before.
      [4, 8, Math.round((fourHourly[20]?.time ?? 0) / 60_000) * 60_000],
    ]);
  });

  it("keeps the interval a venue states", () => {
    const stated = [0, 1, 2].map((hour) => ({ time: hour * 3_600_000 * 8, rate: 0, intervalHours: 1 }));
    expect(fillIntervals(stated, [1, 8]).map((settlement) => settlement.intervalHours)).toEqual([1, 1, 1]);
  });

  it("leaves a series with no whole interval between its settlements underived", () => {
    const lone = [{ time: 0, rate: 0, intervalHours: null }, { time: 16 * 3_600_000, rate: 0, intervalHours: null }];
    expect(fillIntervals(lone, [1, 2, 4, 8]).map((settlement) => settlement.intervalHours)).toEqual([null, null]);
  });
});
