import { describe, expect, it } from "vitest";
import { aggregateObservations, boundaryStates, periodStart, type FundingObservation } from "./aggregate-observations";
import { historyJson } from "@/tests/fixtures/history/read-history-fixture";
import { PARADEX_BTC_RECORDINGS, paradexRows } from "@/tests/fixtures/history/paradex-server";

const HOUR = 3_600_000;
/** 2026-08-27 00:00 UTC, the first recorded boundary; the others follow every 8 h. */
const B0 = Date.UTC(2026, 7, 27);

type Row = { funding_index: string; funding_premium: string; funding_rate: string; funding_period_hours: number; created_at: number };

function parse(row: Row): FundingObservation {
  return {
    time: row.created_at,
    fundingIndex: Number(row.funding_index),
    premium: Number(row.funding_premium),
    rate: Number(row.funding_rate),
    periodHours: row.funding_period_hours > 0 ? row.funding_period_hours : null,
  };
}

/** Every recorded BTC observation: 60 rows after 00:00 on 08-27, then 9 after each of the next four boundaries. */
function recorded(): FundingObservation[] {
  return paradexRows().map((row) => parse(row as unknown as Row));
}

/** The earliest recorded row after a boundary, the one that pins it. */
function earliest(file: string): Row {
  const rows = historyJson<{ results: Row[] }>(file).results;
  return rows.reduce((a, b) => (a.created_at < b.created_at ? a : b));
}

describe("aggregateObservations on recorded Paradex BTC observations", () => {
  it("turns five recorded boundaries into the four whole 8 h periods between them", () => {
    const settlements = aggregateObservations(recorded());
    expect(settlements.map((settlement) => settlement.time)).toEqual([1, 2, 3, 4].map((k) => B0 + k * 8 * HOUR));
    expect(settlements.every((settlement) => settlement.intervalHours === 8)).toBe(true);
  });

  it("is the index delta over the quote price, computed here from the raw rows", () => {
    const [start, end] = [earliest(PARADEX_BTC_RECORDINGS[0]), earliest(PARADEX_BTC_RECORDINGS[1])];
    // The venue's own rule: index advances by premium × elapsed ÷ period; premium = rate × price.
    const indexAt = (row: Row, boundary: number) =>
      Number(row.funding_index) - (Number(row.funding_premium) * (row.created_at - boundary)) / (8 * HOUR);
    const price = (Number(start.funding_premium) / Number(start.funding_rate) + Number(end.funding_premium) / Number(end.funding_rate)) / 2;
    const expected = (indexAt(end, B0 + 8 * HOUR) - indexAt(start, B0)) / price;
    const [first] = aggregateObservations(recorded());
    expect(first?.rate).toBeCloseTo(expected, 15);
    // 7.79 USDC accrued on one BTC at ~79,000 USDC: just under the 0.0001 the rows quote.
    expect(first?.rate).toBeGreaterThan(0.000098);
    expect(first?.rate).toBeLessThan(0.0000998);
  });

  it("stays within the rates quoted at the period's ends, where a sum of the rows overstates it thousands of times", () => {
    const window = historyJson<{ results: Row[] }>(PARADEX_BTC_RECORDINGS[0]).results;
    const times = window.map((row) => row.created_at).sort((a, b) => a - b);
    const cadence = times[1]! - times[0]!;
    expect(cadence).toBe(5_000);
    const rates = window.map((row) => Number(row.funding_rate));
    const summedFiveMinutes = rates.reduce((sum, rate) => sum + rate, 0);
    const [first] = aggregateObservations(recorded());
    const settled = first!.rate;
    expect(settled).toBeGreaterThan(Math.min(...rates) * 0.95);
    expect(settled).toBeLessThan(Math.max(...rates) * 1.05);
    // Five recorded minutes of rows already sum to 60 periods' worth; a whole period holds 5,760 rows.
    expect(summedFiveMinutes / settled).toBeGreaterThan(59);
    const rowsPerPeriod = (8 * HOUR) / cadence;
    expect(rowsPerPeriod).toBe(5_760);
    expect((rowsPerPeriod * (summedFiveMinutes / window.length)) / settled).toBeGreaterThan(5_000);
  });

  it("settles nothing from one boundary alone: a period needs both ends", () => {
    const window = historyJson<{ results: Row[] }>(PARADEX_BTC_RECORDINGS[0]).results.map(parse);
    expect(boundaryStates(window).size).toBe(1);
    expect(aggregateObservations(window)).toEqual([]);
  });

  it("leaves a gap where a boundary has no observation within 30 s, and settles on either side of it", () => {
    const observations = recorded().filter((observation) => periodStart(observation.time, 8) !== B0 + 16 * HOUR);
    expect(aggregateObservations(observations).map((settlement) => settlement.time)).toEqual([B0 + 8 * HOUR, B0 + 32 * HOUR]);
  });

  it("pins a boundary only from an observation at most 30 s after it", () => {
    const late = recorded().filter((observation) => observation.time - periodStart(observation.time, 8) > 30_000);
    expect(boundaryStates(late).size).toBe(0);
    expect(boundaryStates(late, 300_000).size).toBe(5);
    expect(boundaryStates(recorded(), 1_000).size).toBe(0);
  });

  it("reads rows without a stated period as unknown, never as 8 h", () => {
    const unstated = recorded().map((observation) => ({ ...observation, periodHours: null }));
    expect(aggregateObservations(unstated)).toEqual([]);
  });

  it("settles nothing across a change of period", () => {
    const observations = recorded().map((observation) =>
      observation.time > B0 + 20 * HOUR ? { ...observation, periodHours: 4 } : observation,
    );
    // 08-27 16:00 closes the last 8 h period; the later rows state 4 h, whose previous boundary has no row.
    expect(aggregateObservations(observations).map((settlement) => settlement.time)).toEqual([B0 + 8 * HOUR, B0 + 16 * HOUR]);
  });
});
