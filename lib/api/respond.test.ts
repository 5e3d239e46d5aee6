import { afterEach, describe, expect, it, onTestFinished, vi } from "vitest";
import { AppError, fieldError } from "@/lib/errors";
import { captureLogs } from "@/tests/support/capture-logs";
import { jsonError } from "./respond";

afterEach(() => vi.restoreAllMocks());

describe("the one error responder", () => {
  it("turns an unexpected error into a 500 that reveals nothing, and logs it under the request id", async () => {
    const logs = captureLogs();
    onTestFinished(logs.restore);
    const response = jsonError(new Error("connect ECONNREFUSED postgres://admin:hunter2@db:5432"), "req_x", { "X-RateLimit-Limit": "100" });
    expect(response.status).toBe(500);
    const text = await response.text();
    expect(text).not.toMatch(/hunter2|ECONNREFUSED|postgres/);
    expect(JSON.parse(text)).toEqual({
      error: { code: "INTERNAL_ERROR", message: "Internal server error" },
      meta: { timestamp: expect.any(String), request_id: "req_x" },
    });
    expect(response.headers.get("x-request-id")).toBe("req_x");
    expect(response.headers.get("x-ratelimit-limit")).toBe("100");
    expect(logs.records()).toEqual([
      expect.objectContaining({ level: "error", component: "api", request_id: "req_x", msg: "unhandled error", err: expect.objectContaining({ message: expect.stringContaining("ECONNREFUSED") }) }),
    ]);
  });

  it("answers an AppError with its status, details and wait", async () => {
    const limited = jsonError(new AppError("RATE_LIMITED", undefined, { retryAfter: 7 }), "req_y");
    expect(limited.status).toBe(429);
    expect(limited.headers.get("retry-after")).toBe("7");
    expect((await limited.json()).error).toEqual({ code: "RATE_LIMITED", message: "Rate limit exceeded", retry_after: 7 });

    const invalid = jsonError(fieldError("notional_usd", "Must be positive"), "req_z");
    expect(invalid.status).toBe(400);
    expect((await invalid.json()).error).toEqual({
      code: "VALIDATION_ERROR",
      message: "Check the highlighted fields",
      details: [{ field: "notional_usd", message: "Must be positive" }],
    });
  });
});
