import { describe, expect, it } from "vitest";
import { addCounts, emptyCounts } from "./usage-counts";
import { bucketLabel, niceCeiling, usageChartModel } from "./usage-chart-model";

const bucket = (start: string, successes: number, client_errors = 0, rate_limited = 0, server_errors = 0) => ({
  start,
  ...addCounts(emptyCounts(), { successes, client_errors, rate_limited, server_errors }),
});

describe("niceCeiling", () => {
  it("rounds up to 1, 2 or 5 times a power of ten, at least 1", () => {
    expect([0, 0.5, 1, 2, 3, 7, 10, 11, 99, 101, 250, 5000, 5001].map(niceCeiling)).toEqual([1, 1, 1, 2, 5, 10, 10, 20, 100, 200, 500, 5000, 10000]);
  });
});

describe("bucketLabel", () => {
  it("names an hour by its UTC time and a day by its UTC month and day", () => {
    expect(bucketLabel("2026-11-24T07:00:00.000Z", "hour")).toBe("07:00");
    expect(bucketLabel("2026-11-04T00:00:00.000Z", "day")).toBe("11-04");
  });
});

describe("usageChartModel", () => {
  const size = { width: 300, height: 100 };

  it("stacks the outcomes of each bucket from the bottom, scaled to a round axis maximum", () => {
    const model = usageChartModel([bucket("2026-11-24T18:00:00.000Z", 10, 5, 3, 2), bucket("2026-11-24T19:00:00.000Z", 0), bucket("2026-11-24T20:00:00.000Z", 5)], "hour", size, 2);
    expect(model.max).toBe(20);
    expect(model.ticks).toEqual([
      { value: 0, y: 100 },
      { value: 10, y: 50 },
      { value: 20, y: 0 },
    ]);
    const [first, empty, last] = model.bars;
    expect(first!.segments).toEqual([
      { kind: "successes", y: 50, height: 50 },
      { kind: "client_errors", y: 25, height: 25 },
      { kind: "rate_limited", y: 10, height: 15 },
      { kind: "server_errors", y: 0, height: 10 },
    ]);
    expect(first!.x).toBeCloseTo(10);
    expect(first!.width).toBeCloseTo(80);
    expect(empty!.segments).toEqual([]);
    expect(last!.segments).toEqual([{ kind: "successes", y: 75, height: 25 }]);
  });

  it("labels every few bars counting back from the latest, and titles every bar with its numbers", () => {
    const model = usageChartModel([bucket("2026-11-24T18:00:00.000Z", 1), bucket("2026-11-24T19:00:00.000Z", 0), bucket("2026-11-24T20:00:00.000Z", 2, 1)], "hour", size, 2);
    expect(model.bars.map((bar) => bar.label)).toEqual(["18:00", null, "20:00"]);
    expect(model.bars.map((bar) => bar.title)).toEqual([
      "2026-11-24 18:00 UTC: 1 request (1 successful)",
      "2026-11-24 19:00 UTC: 0 requests",
      "2026-11-24 20:00 UTC: 3 requests (2 successful, 1 4xx)",
    ]);
  });

  it("draws an empty range with an axis of 1 and no segments", () => {
    const model = usageChartModel([bucket("2026-11-24T00:00:00.000Z", 0)], "day", size);
    expect(model.max).toBe(1);
    expect(model.ticks.map((tick) => tick.value)).toEqual([0, 1]);
    expect(model.bars[0]!.title).toBe("2026-11-24 (UTC): 0 requests");
  });
});
