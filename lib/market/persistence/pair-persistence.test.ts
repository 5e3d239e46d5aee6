import { describe, expect, it } from "vitest";
import { computePairRecord, HOURS_30D, HOURS_7D, orientPersistence, type MarketSeries } from "./pair-persistence";
import { settledHourlyRates, type SettlementPoint } from "./settled-hours";

const HOUR = 3_600_000;
/** The computation's hour: the windows are the 720 and 168 hours before it. */
const THROUGH = Date.UTC(2026, 10, 21, 16);
const START_30D = THROUGH - HOURS_30D * HOUR;
const START_7D = THROUGH - HOURS_7D * HOUR;
const iso = (ms: number) => new Date(ms).toISOString();
/** Start of hour `i` of the 30-day window (0 = the oldest). */
const hourAt = (i: number) => START_30D + i * HOUR;

/** A market whose hourly APR is `apr(i)` for hour i of the 30-day window (NaN: not observed), never settled. */
function market(apr: (i: number) => number, settlements: SettlementPoint[] = []): MarketSeries {
  return {
    apr: Float64Array.from({ length: HOURS_30D }, (_, i) => apr(i)),
    paid: settledHourlyRates(settlements, START_7D, HOURS_7D),
  };
}
const flat = (value: number) => market(() => value);

describe("computePairRecord", () => {
  it("takes the median and population deviation of the hourly net spread (second − first) over 7 and 30 days", () => {
    // The last 168 hours cycle 10, 20, 30, 40 % above the first leg; the 552 before are 5 % above.
    const second = market((i) => 10 + (i < HOURS_30D - HOURS_7D ? 5 : 10 * (1 + (i % 4))));
    const record = computePairRecord(flat(10), second, THROUGH);
    // 7 days: 42 each of 10, 20, 30, 40: the middle two are 20 and 30. Mean 25, deviations ±5, ±15:
    // variance (25 + 25 + 225 + 225) / 4 = 125.
    expect(record.median7).toBe(25);
    expect(record.stddev7).toBe(11.18034);
    // 30 days: 552 fives and the 168 above: the 360th and 361st smallest are both 5.
    expect(record.median30).toBe(5);
  });

  it("dates the current positive run at its first hour; a negative hour or one with a leg missing ends it", () => {
    const second = market((i) => (i === 600 ? 5 : 20));
    const first = market((i) => (i === 700 ? Number.NaN : 10));
    const record = computePairRecord(first, second, THROUGH);
    expect(record).toMatchObject({ since: hourAt(701), sinceSign: 1 });
    // Without the gap the run goes back to the hour after the negative one.
    expect(computePairRecord(flat(10), second, THROUGH)).toMatchObject({ since: hourAt(601), sinceSign: 1 });
  });

  it("has no run when the last hour's spread is zero or a leg was not observed then", () => {
    expect(computePairRecord(flat(10), flat(10), THROUGH)).toMatchObject({ since: null, sinceSign: 0 });
    expect(computePairRecord(flat(10), market((i) => (i === HOURS_30D - 1 ? Number.NaN : 20)), THROUGH)).toMatchObject({ since: null });
  });

  it("records a negative run as such: it is the positive run of the reverse pair", () => {
    expect(computePairRecord(flat(30), market((i) => (i < 710 ? 40 : 20)), THROUGH)).toMatchObject({ since: hourAt(710), sinceSign: -1 });
  });

  it("dates a run covering all 30 days at the window's start, or continues the previous computation's run", () => {
    const [first, second] = [flat(10), flat(20)];
    expect(computePairRecord(first, second, THROUGH).since).toBe(START_30D);
    const earlier = THROUGH - 40 * 24 * HOUR;
    const previous = (through: number, sinceSign: 1 | -1) => ({
      through,
      record: { ...computePairRecord(first, second, THROUGH), since: earlier, sinceSign },
    });
    // The previous run reached its own last hour (an hour ago), inside this window: the same run.
    expect(computePairRecord(first, second, THROUGH, previous(THROUGH - HOUR, 1)).since).toBe(earlier);
    // A previous run of the other sign, or one that ended before this window began, says nothing.
    expect(computePairRecord(first, second, THROUGH, previous(THROUGH - HOUR, -1)).since).toBe(START_30D);
    expect(computePairRecord(first, second, THROUGH, previous(START_30D - HOUR, 1)).since).toBe(START_30D);
    // A run that does not reach the window's start is dated by this window whatever came before.
    const broken = market((i) => (i === 5 ? 5 : 20));
    expect(computePairRecord(first, broken, THROUGH, previous(THROUGH - HOUR, 1)).since).toBe(hourAt(6));
  });

  it("gives nothing for windows with both legs in fewer than 75 % of their hours", () => {
    // Observed in the last 126 hours only: exactly the 7-day minimum, far from the 30-day one.
    const recent = market((i) => (i >= HOURS_30D - 126 ? 20 : Number.NaN));
    expect(computePairRecord(flat(10), recent, THROUGH)).toMatchObject({ median7: 10, stddev7: 0, median30: null, since: hourAt(HOURS_30D - 126) });
    const shorter = market((i) => (i >= HOURS_30D - 125 ? 20 : Number.NaN));
    expect(computePairRecord(flat(10), shorter, THROUGH)).toMatchObject({ median7: null, stddev7: null, median30: null });
    // 540 of 720 hours: the 30-day median is given.
    const gappy = market((i) => (i % 4 === 0 ? Number.NaN : 20));
    expect(computePairRecord(flat(10), gappy, THROUGH)).toMatchObject({ median30: 10, median7: 10 });
    expect(computePairRecord(flat(10), market((i) => (i % 4 === 0 || i === 1 ? Number.NaN : 20)), THROUGH).median30).toBeNull();
  });

  it("counts the settled hours in which each leg's settlements paid more, per hour, so 1h and 8h legs compare", () => {
    // First: 8h settlements of 0.0008 (0.0001 an hour) ending on the 8h marks; all 168 hours settled.
    const eightHourly = Array.from({ length: 21 }, (_, k) => ({ time: START_7D + (k + 1) * 8 * HOUR, rate: 0.0008, intervalHours: 8 }));
    // Second: 1h settlements, 0.00005 for the first 42 hours, then 0.0002. Per interval, 0.0002 looks
    // smaller than 0.0008; per hour it is twice as much.
    const hourly = Array.from({ length: HOURS_7D }, (_, k) => ({ time: START_7D + (k + 1) * HOUR, rate: k < 42 ? 0.00005 : 0.0002, intervalHours: 1 }));
    const record = computePairRecord(market(() => 10, eightHourly), market(() => 20, hourly), THROUGH);
    expect(record).toMatchObject({ settledHours: 168, secondPaidMore: 126, firstPaidMore: 42 });
    // Only hours both legs settled count: without the last 8h settlement its 8 hours are not settled yet.
    const unsettled = computePairRecord(market(() => 10, eightHourly.slice(0, -1)), market(() => 20, hourly), THROUGH);
    expect(unsettled).toMatchObject({ settledHours: 160, secondPaidMore: 118, firstPaidMore: 42 });
  });
});

describe("orientPersistence", () => {
  const eightHourly = Array.from({ length: 21 }, (_, k) => ({ time: START_7D + (k + 1) * 8 * HOUR, rate: 0.0008, intervalHours: 8 }));
  const hourly = Array.from({ length: HOURS_7D }, (_, k) => ({ time: START_7D + (k + 1) * HOUR, rate: k < 42 ? 0.00005 : 0.0002, intervalHours: 1 }));
  const record = computePairRecord(market(() => 10, eightHourly), market((i) => (i < 700 ? 12 : 30), hourly), THROUGH);

  it("gives the record as it is for long first, short second", () => {
    expect(orientPersistence(record, true, THROUGH)).toEqual({
      as_of: iso(THROUGH),
      positive_since: iso(START_30D),
      apr_median_7d: 2,
      apr_median_30d: 2,
      paid_share_7d: 0.75,
      apr_stddev_7d: record.stddev7,
    });
    // 148 hours of 2 and 20 of 20: mean 4.142857…, deviation √(148·2.142857² + 20·15.857143²) / 168.
    expect(record.stddev7).toBeCloseTo(Math.sqrt((148 * (30 / 14) ** 2 + 20 * (222 / 14) ** 2) / 168), 6);
  });

  it("turns it round for long second, short first: spreads negated, the other paid count, no positive run", () => {
    expect(orientPersistence(record, false, THROUGH)).toEqual({
      as_of: iso(THROUGH),
      positive_since: null,
      apr_median_7d: -2,
      apr_median_30d: -2,
      paid_share_7d: 0.25,
      apr_stddev_7d: record.stddev7,
    });
  });

  it("gives no paid share with fewer than 126 settled hours", () => {
    const few = computePairRecord(market(() => 10, eightHourly.slice(0, 15)), market(() => 20, hourly), THROUGH);
    expect(few.settledHours).toBe(120);
    expect(orientPersistence(few, true, THROUGH).paid_share_7d).toBeNull();
  });
});
