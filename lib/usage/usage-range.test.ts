import { describe, expect, it } from "vitest";
import { AppError } from "@/lib/errors";
import { resolveUsageRange } from "./usage-range";

const now = new Date("2026-11-24T20:35:12.345Z");
const iso = (date: Date) => date.toISOString();

function refusal(run: () => unknown) {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(AppError);
    return { status: (error as AppError).status, details: (error as AppError).extra.details };
  }
  throw new Error("not refused");
}

describe("resolveUsageRange", () => {
  it("answers the last 24 hours by default, the current hour included", () => {
    const range = resolveUsageRange({ granularity: "hour" }, now);
    expect(range.buckets).toHaveLength(24);
    expect(iso(range.from)).toBe("2026-11-23T21:00:00.000Z");
    expect(iso(range.buckets.at(-1)!)).toBe("2026-11-24T20:00:00.000Z");
    expect(iso(range.to)).toBe("2026-11-24T21:00:00.000Z");
  });

  it("answers the last 30 UTC days by the day, today included", () => {
    const range = resolveUsageRange({ granularity: "day" }, now);
    expect(range.buckets).toHaveLength(30);
    expect(iso(range.from)).toBe("2026-10-26T00:00:00.000Z");
    expect(iso(range.to)).toBe("2026-11-25T00:00:00.000Z");
  });

  it("starts at the bucket holding `from` and ends before `to`, which is exclusive", () => {
    const range = resolveUsageRange({ granularity: "hour", from: new Date("2026-11-24T10:30:00Z"), to: new Date("2026-11-24T13:00:00Z") }, now);
    expect(range.buckets.map(iso)).toEqual(["2026-11-24T10:00:00.000Z", "2026-11-24T11:00:00.000Z", "2026-11-24T12:00:00.000Z"]);
    const days = resolveUsageRange({ granularity: "day", from: new Date("2026-11-01"), to: new Date("2026-11-08") }, now);
    expect(days.buckets).toHaveLength(7);
    expect(iso(days.to)).toBe("2026-11-08T00:00:00.000Z");
  });

  it("fills in the other end from one of them: 24 buckets, never past now", () => {
    const fromOnly = resolveUsageRange({ granularity: "hour", from: new Date("2026-11-20T00:00:00Z") }, now);
    expect(fromOnly.buckets).toHaveLength(24);
    expect(iso(fromOnly.to)).toBe("2026-11-21T00:00:00.000Z");
    const recent = resolveUsageRange({ granularity: "hour", from: new Date("2026-11-24T18:10:00Z") }, now);
    expect(recent.buckets.map(iso)).toEqual(["2026-11-24T18:00:00.000Z", "2026-11-24T19:00:00.000Z", "2026-11-24T20:00:00.000Z"]);
    const toOnly = resolveUsageRange({ granularity: "day", to: new Date("2026-11-10") }, now);
    expect(iso(toOnly.from)).toBe("2026-10-11T00:00:00.000Z");
    expect(toOnly.buckets).toHaveLength(30);
  });

  it("accepts the longest ranges: 7 days of hours, 90 days", () => {
    expect(resolveUsageRange({ granularity: "hour", from: new Date("2026-11-01T00:00:00Z"), to: new Date("2026-11-08T00:00:00Z") }, now).buckets).toHaveLength(168);
    expect(resolveUsageRange({ granularity: "day", from: new Date("2026-08-01"), to: new Date("2026-10-30") }, now).buckets).toHaveLength(90);
  });

  it("refuses longer ranges, reversed ones and a lone `from` in the future with a 400 naming the field", () => {
    expect(refusal(() => resolveUsageRange({ granularity: "hour", from: new Date("2026-11-01T00:00:00Z"), to: new Date("2026-11-08T00:00:01Z") }, now))).toEqual({
      status: 400,
      details: [{ field: "to", message: "The range may span at most 7 days at hour granularity" }],
    });
    expect(refusal(() => resolveUsageRange({ granularity: "day", from: new Date("2026-08-01"), to: new Date("2026-10-31") }, now)).details).toEqual([
      { field: "to", message: "The range may span at most 90 days at day granularity" },
    ]);
    expect(refusal(() => resolveUsageRange({ granularity: "hour", from: new Date("2026-11-02"), to: new Date("2026-11-02") }, now)).details).toEqual([
      { field: "to", message: "Must be after from" },
    ]);
    expect(refusal(() => resolveUsageRange({ granularity: "day", from: new Date("2026-11-25T00:00:00Z") }, now)).details).toEqual([
      { field: "from", message: "Must not be in the future" },
    ]);
  });
});
