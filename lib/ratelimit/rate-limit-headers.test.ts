import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { rateLimitHeaders } from "./rate-limit-headers";

describe("rateLimitHeaders", () => {
  it("sends limit, remaining and reset in epoch seconds on success", () => {
    const fields = rateLimitHeaders({ success: true, limit: 100, remaining: 42, reset: 1_700_000_040_000 }, 1_700_000_000_000);
    expect(fields).toEqual({
      headers: {
        "X-RateLimit-Limit": "100",
        "X-RateLimit-Remaining": "42",
        "X-RateLimit-Reset": "1700000040",
        "RateLimit-Policy": '"default";q=100;w=60',
        RateLimit: '"default";r=42;t=40',
      },
    });
  });

  it("names another policy and its window when told", () => {
    const fields = rateLimitHeaders({ success: false, limit: 20, remaining: 0, reset: 1_700_000_040_000 }, 1_700_000_030_500, {
      name: "failed_auth",
      windowMs: 60_000,
    });
    expect(fields.headers["RateLimit-Policy"]).toBe('"failed_auth";q=20;w=60');
    expect(fields.headers.RateLimit).toBe('"failed_auth";r=0;t=10');
  });

  it("adds Retry-After and retry_after when refused", () => {
    const fields = rateLimitHeaders({ success: false, limit: 100, remaining: 0, reset: 1_700_000_040_000 }, 1_700_000_012_300);
    expect(fields.headers["Retry-After"]).toBe("28");
    expect(fields.retryAfter).toBe(28);
    expect(fields.headers.RateLimit).toBe('"default";r=0;t=28');
  });

  it("never tells a refused client to retry in 0 seconds", () => {
    const fields = rateLimitHeaders({ success: false, limit: 1, remaining: 0, reset: 1_000 }, 1_000);
    expect(fields.retryAfter).toBe(1);
    expect(fields.headers["Retry-After"]).toBe("1");
  });

  it("always yields integer seconds: reset ≥ the ms reset, retry_after ≥ 1 and equal to Retry-After", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1_500_000_000_000, max: 2_500_000_000_000 }),
        fc.integer({ min: -5_000, max: 120_000 }),
        fc.boolean(),
        (now, ahead, success) => {
          const reset = now + ahead;
          const { headers, retryAfter } = rateLimitHeaders({ success, limit: 100, remaining: 0, reset }, now);
          const resetSeconds = Number(headers["X-RateLimit-Reset"]);
          // The IETF fields carry the same numbers: the quota, what is left, and the same wait.
          const fields = /^"default";r=(\d+);t=(\d+)$/.exec(headers.RateLimit!);
          expect(headers["RateLimit-Policy"]).toBe('"default";q=100;w=60');
          expect(Number(fields?.[1])).toBe(Number(headers["X-RateLimit-Remaining"]));
          expect(Number(fields?.[2])).toBe(Math.max(1, Math.ceil((reset - now) / 1000)));
          expect(Number.isInteger(resetSeconds)).toBe(true);
          expect(resetSeconds * 1000).toBeGreaterThanOrEqual(reset);
          expect(resetSeconds * 1000 - reset).toBeLessThan(1000);
          if (success) {
            expect(retryAfter).toBeUndefined();
            expect(headers["Retry-After"]).toBeUndefined();
          } else {
            expect(Number.isInteger(retryAfter)).toBe(true);
            expect(retryAfter).toBeGreaterThanOrEqual(1);
            expect(headers["Retry-After"]).toBe(String(retryAfter));
            expect(fields?.[2]).toBe(String(retryAfter));
            expect(now + (retryAfter ?? 0) * 1000).toBeGreaterThanOrEqual(reset);
          }
        },
      ),
    );
  });
});
