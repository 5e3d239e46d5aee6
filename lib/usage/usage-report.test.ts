import { describe, expect, it } from "vitest";
import { resolveUsageRange } from "./usage-range";
import { buildUsageReport, usageReportSchema, type UsageBucketRow, type UsageKeyInfo } from "./usage-report";

const now = new Date("2026-11-24T20:35:00Z");
const range = resolveUsageRange({ granularity: "hour", from: new Date("2026-11-24T18:00:00Z"), to: new Date("2026-11-24T21:00:00Z") }, now);
const at = (text: string) => Date.parse(text);

const key = (id: string, overrides: Partial<UsageKeyInfo> = {}): UsageKeyInfo => ({
  id,
  name: `key ${id}`,
  prefix: `svc_sk_live_${id}…`,
  mode: "live",
  active: true,
  createdAt: new Date("2026-11-01T00:00:00Z"),
  ...overrides,
});

const row = (keyId: string, bucket: string, route: string, counts: Partial<Omit<UsageBucketRow, "keyId" | "bucket" | "route">>): UsageBucketRow => ({
  keyId,
  bucket: at(bucket),
  route,
  successes: 0,
  clientErrors: 0,
  rateLimited: 0,
  serverErrors: 0,
  peakPerMinute: 0,
  ...counts,
});

describe("buildUsageReport", () => {
  const rows = [
    row("a", "2026-11-24T18:00:00Z", "GET /v1/opportunities", { successes: 10, rateLimited: 2, peakPerMinute: 100 }),
    row("a", "2026-11-24T20:00:00Z", "GET /v1/opportunities", { successes: 3, peakPerMinute: 4 }),
    row("a", "2026-11-24T20:00:00Z", "GET /v1/opportunities/{id}", { clientErrors: 1, peakPerMinute: 4 }),
    row("b", "2026-11-24T19:00:00Z", "GET /v1/auth/verify", { successes: 1, serverErrors: 1, peakPerMinute: 2 }),
    row("gone", "2026-11-24T19:00:00Z", "GET /v1/auth/verify", { successes: 50 }), // not one of the account's keys
    row("a", "2026-11-24T17:00:00Z", "GET /v1/auth/verify", { successes: 50 }), // before the range
  ];
  const report = buildUsageReport(range, rows, [key("a"), key("b"), key("idle"), key("old", { active: false })], 100);

  it("totals the account per bucket, empty buckets included, and per route busiest first", () => {
    expect(usageReportSchema.parse(report)).toEqual(report);
    expect(report).toMatchObject({ granularity: "hour", from: "2026-11-24T18:00:00.000Z", to: "2026-11-24T21:00:00.000Z" });
    expect(report.totals).toEqual({ requests: 18, successes: 14, client_errors: 1, rate_limited: 2, server_errors: 1 });
    expect(report.buckets.map((b) => [b.start, b.requests])).toEqual([
      ["2026-11-24T18:00:00.000Z", 12],
      ["2026-11-24T19:00:00.000Z", 2],
      ["2026-11-24T20:00:00.000Z", 4],
    ]);
    expect(report.routes.map((r) => [r.route, r.requests])).toEqual([
      ["GET /v1/opportunities", 15],
      ["GET /v1/auth/verify", 2],
      ["GET /v1/opportunities/{id}", 1],
    ]);
  });

  it("gives each key its buckets, routes, busiest minute and limit; idle active keys listed, inactive ones only with usage", () => {
    expect(report.keys.map((k) => k.id)).toEqual(["a", "b", "idle"]);
    const [a, b, idle] = report.keys;
    expect(a).toMatchObject({ name: "key a", prefix: "svc_sk_live_a…", mode: "live", active: true, peak_per_minute: 100, limit_per_minute: 100 });
    expect(a!.totals).toEqual({ requests: 16, successes: 13, client_errors: 1, rate_limited: 2, server_errors: 0 });
    expect(a!.buckets.map((bucket) => [bucket.requests, bucket.peak_per_minute])).toEqual([
      [12, 100],
      [0, 0],
      [4, 4],
    ]);
    expect(a!.routes.map((r) => r.route)).toEqual(["GET /v1/opportunities", "GET /v1/opportunities/{id}"]);
    expect(b!.totals.requests).toBe(2);
    expect(idle).toMatchObject({ peak_per_minute: 0, totals: { requests: 0 } });
    expect(idle!.buckets).toHaveLength(3);
  });

  it("lists a revoked key while it has usage in the range", () => {
    const withOld = buildUsageReport(range, [row("old", "2026-11-24T19:00:00Z", "GET /v1/auth/verify", { successes: 1 })], [key("old", { active: false })], 100);
    expect(withOld.keys.map((k) => [k.id, k.active, k.totals.requests])).toEqual([["old", false, 1]]);
  });
});
