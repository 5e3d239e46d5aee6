import { describe, expect, it } from "vitest";
import { parseBackfillArgs, progressLine } from "./backfill-args";

const NOW = Date.UTC(2026, 11, 2, 7);
const context = { known: ["binance", "okx", "bitmart"], withHistory: ["binance", "okx"], now: NOW, defaultDays: 365 };

describe("the backfill CLI's arguments", () => {
  it("defaults to every venue with history, BACKFILL_DAYS deep", () => {
    expect(parseBackfillArgs([], context)).toEqual({ ok: true, args: { venues: ["binance", "okx"], since: NOW - 365 * 86_400_000 } });
    expect(parseBackfillArgs(["--venues=OKX,okx", "--since=2024-02-29"], context)).toEqual({ ok: true, args: { venues: ["okx"], since: Date.UTC(2024, 1, 29) } });
  });

  it("names what is wrong", () => {
    const error = (argv: string[]) => {
      const parsed = parseBackfillArgs(argv, context);
      return parsed.ok ? null : parsed.error;
    };
    expect(error(["--venues=binanse"])).toBe("Unknown venue: binanse (known: binance, okx, bitmart)");
    expect(error(["--venues=bitmart"])).toBe("No funding-history reader for bitmart");
    expect(error(["--venues="])).toBe("--venues names no venue");
    expect(error(["--since=2025-02-30"])).toBe('--since must be a date as YYYY-MM-DD, not "2025-02-30"');
    expect(error(["--since=1 year"])).toBe('--since must be a date as YYYY-MM-DD, not "1 year"');
    expect(error(["--since=2027-01-01"])).toBe("--since 2027-01-01 is not in the past");
    expect(error(["--venue=okx"])).toBe('Unknown argument "--venue=okx"');
    expect(error(["okx"])).toBe('Unknown argument "okx"');
    expect(parseBackfillArgs([], { ...context, withHistory: [] })).toEqual({ ok: false, error: "No venue has a funding-history reader yet" });
  });

  it("reads no deeper than SETTLEMENT_RETENTION_DAYS keeps", () => {
    const kept = { ...context, retentionDays: 90 };
    expect(parseBackfillArgs([], kept)).toEqual({ ok: true, args: { venues: ["binance", "okx"], since: NOW - 90 * 86_400_000 } });
    expect(parseBackfillArgs([], { ...context, retentionDays: 730 })).toMatchObject({ args: { since: NOW - 365 * 86_400_000 } });
    expect(parseBackfillArgs(["--since=2026-10-01"], kept)).toMatchObject({ ok: true, args: { since: Date.UTC(2026, 9, 1) } });
    expect(parseBackfillArgs(["--since=2026-01-01"], kept)).toEqual({
      ok: false,
      error: "--since 2026-01-01 is older than SETTLEMENT_RETENTION_DAYS (90 days): retention would drop those months again",
    });
  });

  it("draws a bar on a terminal and plain figures otherwise", () => {
    expect(progressLine("okx", { done: 1, total: 4, rows: 12_345 }, 8)).toBe("[##------]  25% okx: 1/4 markets, 12,345 rows");
    expect(progressLine("okx", { done: 1, total: 4, rows: 12_345 }, null)).toBe("okx: 1/4 markets, 12,345 rows");
    expect(progressLine("okx", { done: 0, total: 0, rows: 0 }, 4)).toBe("[####] 100% okx: 0/0 markets, 0 rows");
  });
});
