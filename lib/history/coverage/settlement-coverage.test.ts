import { describe, expect, it } from "vitest";
import { findGaps, settlementCoverage, sourceSpans, typicalStepMs, venueHistoryLimits } from "./settlement-coverage";

const H = 3_600_000;
const T0 = Date.UTC(2026, 0, 1);
const mark = (market: string, hour: number, intervalHours: number | null, source = "observed") => ({ market, time: T0 + hour * H, intervalHours, source });

describe("typicalStepMs", () => {
  it("is the most frequent step, the shorter on a tie, null under two times", () => {
    expect(typicalStepMs([0, 8, 16, 24, 28].map((h) => h * H))).toBe(8 * H);
    expect(typicalStepMs([0, 4, 12].map((h) => h * H))).toBe(4 * H);
    expect(typicalStepMs([T0])).toBeNull();
    expect(typicalStepMs([])).toBeNull();
  });
});

describe("findGaps", () => {
  it("holds each settlement to its own stated interval, across an interval change", () => {
    // 8h, then 4h from hour 16 on: no gap; then a missed 4h settlement (20 → 28).
    const points = [0, 8, 16, 20, 28].map((h, i) => ({ time: T0 + h * H, intervalHours: i < 2 ? 8 : 4 }));
    points[2]!.intervalHours = 8;
    expect(findGaps(points, 8 * H)).toEqual({ gaps: [[T0 + 20 * H, T0 + 28 * H]], total: 1 });
  });

  it("holds a settlement without a stated interval to the series' typical step, and tolerates a late record", () => {
    const points = [0, 1, 2, 3, 6, 7.2].map((h) => ({ time: T0 + h * H, intervalHours: null }));
    expect(findGaps(points, H)).toEqual({ gaps: [[T0 + 3 * H, T0 + 6 * H]], total: 1 });
    expect(findGaps(points, null)).toEqual({ gaps: [], total: 0 });
  });

  it("lists at most `max` gaps, oldest first, and counts them all", () => {
    const points = Array.from({ length: 10 }, (_, i) => ({ time: T0 + i * 2 * H, intervalHours: 1 }));
    const found = findGaps(points, H, 3);
    expect(found.total).toBe(9);
    expect(found.gaps).toEqual([
      [T0, T0 + 2 * H],
      [T0 + 2 * H, T0 + 4 * H],
      [T0 + 4 * H, T0 + 6 * H],
    ]);
  });
});

describe("sourceSpans", () => {
  it("gives each source its first, last and count, by first settlement", () => {
    const spans = sourceSpans([mark("m", 10, 1, "observed"), mark("m", 0, 1, "backfill"), mark("m", 9, 1, "backfill"), mark("m", 11, 1, "observed")]);
    expect(spans).toEqual([
      { source: "backfill", first: T0, last: T0 + 9 * H, settlements: 2 },
      { source: "observed", first: T0 + 10 * H, last: T0 + 11 * H, settlements: 2 },
    ]);
  });
});

describe("settlementCoverage", () => {
  it("summarises every market of the asset apart, by market", () => {
    const marks = [
      ...[0, 8, 16, 40, 48].map((h) => mark("BTC/USDT:USDT", h, 8, h < 16 ? "backfill" : "observed")),
      ...[0, 1, 2].map((h) => mark("BTC/USDC:USDC", h, null)),
    ];
    const coverage = settlementCoverage(marks);
    expect(coverage.map((c) => c.market)).toEqual(["BTC/USDC:USDC", "BTC/USDT:USDT"]);
    const [usdc, usdt] = coverage;
    expect(usdc).toMatchObject({ first: T0, last: T0 + 2 * H, settlements: 3, typicalIntervalHours: 1, gaps: [], gapsTotal: 0 });
    expect(usdt).toMatchObject({ first: T0, last: T0 + 48 * H, settlements: 5, typicalIntervalHours: 8, gaps: [[T0 + 16 * H, T0 + 40 * H]], gapsTotal: 1 });
    expect(usdt!.sources.map((s) => [s.source, s.settlements])).toEqual([
      ["backfill", 2],
      ["observed", 3],
    ]);
  });

  it("is empty without settlements, and a single settlement has no typical interval", () => {
    expect(settlementCoverage([])).toEqual([]);
    expect(settlementCoverage([mark("X/USDT:USDT", 0, 8)])[0]).toMatchObject({ settlements: 1, typicalIntervalHours: null, gapsTotal: 0 });
  });
});

describe("venueHistoryLimits", () => {
  it("states a reader's limits in the API's words, and null without a reader", () => {
    expect(venueHistoryLimits(undefined)).toBeNull();
    expect(
      venueHistoryLimits({ pageSize: 100, maxDepthDays: null, pagination: "single-page", requestsPerSecond: 10, source: "https://example.test/doc" }),
    ).toEqual({ page_size: 100, max_depth_days: null, pagination: "single-page", requests_per_second: 10, source: "https://example.test/doc" });
  });
});
