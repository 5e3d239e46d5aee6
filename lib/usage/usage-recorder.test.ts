import { describe, expect, it } from "vitest";
import type { Db } from "@/lib/db";
import { addCounts, emptyCounts, statusClass } from "./usage-counts";
import { UsageRecorder, type UsageRow } from "./usage-recorder";
import { windowCount } from "./window-count";

const HOUR = Date.UTC(2026, 10, 24, 20);
const noDb = async (): Promise<Db> => {
  throw new Error("database down");
};

const byRoute = (rows: UsageRow[]) => Object.fromEntries(rows.map((row) => [`${row.keyId} ${row.hour.toISOString()} ${row.route}`, row]));

describe("statusClass", () => {
  it("counts 2xx and 3xx as successes, 429 apart from the other 4xx, and 5xx as server errors", () => {
    expect([200, 201, 204, 304].map(statusClass)).toEqual([0, 0, 0, 0]);
    expect([400, 401, 403, 404, 405, 409, 413].map(statusClass)).toEqual([1, 1, 1, 1, 1, 1, 1]);
    expect(statusClass(429)).toBe(2);
    expect([500, 502, 503].map(statusClass)).toEqual([3, 3, 3]);
  });
});

describe("addCounts", () => {
  it("adds each outcome and keeps requests their sum", () => {
    const counts = addCounts(emptyCounts(), { successes: 3, client_errors: 1, rate_limited: 2, server_errors: 0 });
    addCounts(counts, { successes: 1, client_errors: 0, rate_limited: 0, server_errors: 4 });
    expect(counts).toEqual({ requests: 11, successes: 4, client_errors: 1, rate_limited: 2, server_errors: 4 });
  });
});

describe("windowCount", () => {
  it("reads limit − remaining from the rate-limit headers, and 0 without them", () => {
    expect(windowCount({ "X-RateLimit-Limit": "100", "X-RateLimit-Remaining": "58" })).toBe(42);
    expect(windowCount({ "X-RateLimit-Limit": "100", "X-RateLimit-Remaining": "0" })).toBe(100);
    expect(windowCount(undefined)).toBe(0);
    expect(windowCount({})).toBe(0);
  });
});

describe("UsageRecorder", () => {
  it("counts per key, UTC hour, route and outcome, with each key-hour's busiest minute on its rows", () => {
    const recorder = new UsageRecorder(noDb);
    recorder.record("k1", "GET /v1/opportunities", 200, 1, HOUR + 1_000);
    recorder.record("k1", "GET /v1/opportunities", 304, 2, HOUR + 2_000);
    recorder.record("k1", "GET /v1/opportunities", 429, 100, HOUR + 3_000);
    recorder.record("k1", "GET /v1/opportunities/{id}", 404, 7, HOUR + 60_000);
    recorder.record("k1", "GET /v1/opportunities", 500, 3, HOUR + 3_600_000); // the next hour
    recorder.record("k2", "GET /v1/auth/verify", 200, 1, HOUR + 5_000);

    const rows = byRoute(recorder.take());
    expect(Object.keys(rows)).toHaveLength(4);
    expect(rows["k1 2026-11-24T20:00:00.000Z GET /v1/opportunities"]).toMatchObject({ successes: 2, clientErrors: 0, rateLimited: 1, serverErrors: 0, peakPerMinute: 100 });
    expect(rows["k1 2026-11-24T20:00:00.000Z GET /v1/opportunities/{id}"]).toMatchObject({ successes: 0, clientErrors: 1, peakPerMinute: 100 });
    expect(rows["k1 2026-11-24T21:00:00.000Z GET /v1/opportunities"]).toMatchObject({ serverErrors: 1, peakPerMinute: 3 });
    expect(rows["k2 2026-11-24T20:00:00.000Z GET /v1/auth/verify"]).toMatchObject({ successes: 1, peakPerMinute: 1 });
    expect(recorder.take()).toEqual([]);
  });

  it("keeps counting into an hour after requests of another hour arrived (clocks of requests may interleave)", () => {
    const recorder = new UsageRecorder(noDb);
    recorder.record("k", "r", 200, 1, HOUR);
    recorder.record("k", "r", 200, 1, HOUR + 3_600_000);
    recorder.record("k", "r", 200, 2, HOUR + 10);
    const rows = recorder.take();
    expect(rows.map((row) => [row.hour.getTime(), row.successes, row.peakPerMinute])).toEqual([
      [HOUR, 2, 2],
      [HOUR + 3_600_000, 1, 1],
    ]);
  });

  it("keeps a batch the database refused and adds it to what arrives meanwhile", async () => {
    const recorder = new UsageRecorder(noDb);
    recorder.record("k", "r", 200, 5, HOUR);
    recorder.record("k", "r", 429, 9, HOUR);
    await expect(recorder.flush()).rejects.toThrow("database down");
    recorder.record("k", "r", 200, 6, HOUR);
    recorder.record("k", "other", 400, 1, HOUR);
    const rows = byRoute(recorder.take());
    expect(rows["k 2026-11-24T20:00:00.000Z r"]).toMatchObject({ successes: 2, rateLimited: 1, peakPerMinute: 9 });
    expect(rows["k 2026-11-24T20:00:00.000Z other"]).toMatchObject({ clientErrors: 1, peakPerMinute: 9 });
  });

  it("writes nothing, and touches no database, when nothing was recorded", async () => {
    const recorder = new UsageRecorder(noDb);
    await expect(recorder.flush()).resolves.toBeUndefined();
  });
});
