import { describe, expect, it } from "vitest";
import { settledHourlyRates } from "./settled-hours";

const HOUR = 3_600_000;
const T0 = Date.UTC(2026, 10, 20, 0);
const at = (hours: number) => T0 + hours * HOUR;
const list = (rates: Float64Array) => [...rates].map((r) => (Number.isNaN(r) ? null : Number(r.toPrecision(12))));

describe("settledHourlyRates", () => {
  it("spreads an 8h settlement over the 8 hours before it; hours not settled yet are NaN", () => {
    const rates = settledHourlyRates([{ time: at(8), rate: 0.0008, intervalHours: 8 }], T0, 10);
    expect(list(rates)).toEqual([0.0001, 0.0001, 0.0001, 0.0001, 0.0001, 0.0001, 0.0001, 0.0001, null, null]);
  });

  it("gives 1h settlements their own hour, so 1h and 8h legs compare per hour", () => {
    const hourly = [1, 2, 3].map((h) => ({ time: at(h), rate: 0.0002 * h, intervalHours: 1 }));
    expect(list(settledHourlyRates(hourly, T0, 3))).toEqual([0.0002, 0.0004, 0.0006]);
  });

  it("counts the part of a settlement inside the window when its interval began before it", () => {
    // 18:00 the day before → 02:00: two of its eight hours are in a window starting at midnight.
    expect(list(settledHourlyRates([{ time: at(2), rate: 0.0008, intervalHours: 8 }], T0, 3))).toEqual([0.0001, 0.0001, null]);
  });

  it("adds up settlements sharing an hour (30-minute intervals)", () => {
    const halfHours = [
      { time: at(0.5), rate: 0.00005, intervalHours: 0.5 },
      { time: at(1), rate: 0.00007, intervalHours: 0.5 },
    ];
    expect(list(settledHourlyRates(halfHours, T0, 1))).toEqual([0.00012]);
    // Only half the hour settled: not a settled hour.
    expect(list(settledHourlyRates(halfHours.slice(0, 1), T0, 1))).toEqual([null]);
  });

  it("leaves a settlement of unknown interval out, since what it paid for is unknown", () => {
    expect(list(settledHourlyRates([{ time: at(1), rate: 0.0001, intervalHours: null }], T0, 1))).toEqual([null]);
  });

  it("leaves an interval change without gaps: 4h, then 1h from the settlement that closed the 4h interval", () => {
    const changed = [
      { time: at(4), rate: 0.0004, intervalHours: 4 },
      { time: at(5), rate: 0.0003, intervalHours: 1 },
    ];
    expect(list(settledHourlyRates(changed, T0, 6))).toEqual([0.0001, 0.0001, 0.0001, 0.0001, 0.0003, null]);
  });

  it("covers every hour between settlements stamped a few milliseconds late, as venues stamp them", () => {
    // Hyperliquid's hourly times jitter (…600048, then …600012): the hour between must not be left 36 ms short.
    const jittered = [
      { time: at(1) + 48, rate: 0.00001, intervalHours: 1 },
      { time: at(2) + 12, rate: 0.00002, intervalHours: 1 },
      { time: at(3) + 55, rate: 0.00003, intervalHours: 1 },
    ];
    expect(list(settledHourlyRates(jittered, T0, 3))).toEqual([0.00001, 0.00002, 0.00003]);
  });
});
