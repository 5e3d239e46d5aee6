import { expect } from "vitest";
import { ERROR_STATUS, type ErrorCode } from "@/lib/errors";

export const REQUEST_ID = /^req_[0-9A-Za-z]{24}$/;
export const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const WINDOW_S = 60;

export type Envelope =
  | { kind: "success"; data: unknown; meta: Record<string, unknown> }
  | {
      kind: "error";
      error: { code: ErrorCode; message: string; retry_after?: number; details?: { field: string; message: string }[] };
      meta: Record<string, unknown>;
    };

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * Asserts that a /v1 answer is exactly one of the two envelopes (the OpenAPI document's description), that an error's code and
 * HTTP status agree with lib/errors.ts, and that the request id in the body is the one in the
 * `X-Request-Id` header. `context` names the request in failure messages.
 */
export function expectEnvelope(status: number, headers: Headers, text: string, context: string): Envelope {
  const where = `${context} → ${status} ${text.slice(0, 300)}`;
  expect(status, `no 500 may escape: ${where}`).not.toBe(500);
  expect(headers.get("content-type") ?? "", `JSON content type: ${where}`).toMatch(/^application\/json\b/);
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new Error(`body is not JSON: ${where}`);
  }
  expect(isPlainObject(body), `body is an object: ${where}`).toBe(true);
  const top = Object.keys(body as object).sort();
  const kind = top.join(",") === "data,meta" ? "success" : top.join(",") === "error,meta" ? "error" : undefined;
  expect(kind, `top-level keys are {data, meta} or {error, meta}, got {${top.join(", ")}}: ${where}`).toBeDefined();

  const { meta } = body as { meta: unknown };
  expect(isPlainObject(meta), `meta is an object: ${where}`).toBe(true);
  const { timestamp, request_id: requestId } = meta as Record<string, unknown>;
  expect(typeof timestamp === "string" && TIMESTAMP.test(timestamp), `meta.timestamp is ISO 8601 UTC with ms: ${where}`).toBe(true);
  expect(Math.abs(Date.parse(timestamp as string) - Date.now()), `meta.timestamp is now: ${where}`).toBeLessThan(5 * 60_000);
  expect(typeof requestId === "string" && REQUEST_ID.test(requestId), `meta.request_id is req_ + 24 base62: ${where}`).toBe(true);
  expect(headers.get("x-request-id"), `X-Request-Id equals meta.request_id: ${where}`).toBe(requestId);

  if (kind === "success") {
    expect([200, 201], `a success envelope comes with 200 or 201: ${where}`).toContain(status);
    return { kind: "success", data: (body as { data: unknown }).data, meta: meta as Record<string, unknown> };
  }

  const { error } = body as { error: unknown };
  expect(isPlainObject(error), `error is an object: ${where}`).toBe(true);
  const e = error as Record<string, unknown>;
  const extra = Object.keys(e).filter((k) => !["code", "message", "retry_after", "details"].includes(k));
  expect(extra, `error has only code, message, retry_after, details: ${where}`).toEqual([]);
  expect(Object.keys(ERROR_STATUS), `error.code is a known code: ${where}`).toContain(e.code);
  const code = e.code as ErrorCode;
  expect(status, `HTTP status matches ${code}: ${where}`).toBe(ERROR_STATUS[code]);
  expect(typeof e.message === "string" && e.message.length > 0, `error.message is a non-empty string: ${where}`).toBe(true);
  if (code === "RATE_LIMITED") {
    expect(Number.isInteger(e.retry_after) && (e.retry_after as number) >= 1, `retry_after is an integer ≥ 1: ${where}`).toBe(true);
    expect(headers.get("retry-after"), `Retry-After header equals retry_after: ${where}`).toBe(String(e.retry_after));
  } else {
    expect(e.retry_after, `retry_after only on RATE_LIMITED: ${where}`).toBeUndefined();
  }
  if (code === "VALIDATION_ERROR") expect(e.details, `VALIDATION_ERROR carries details: ${where}`).toBeDefined();
  if (e.details !== undefined) {
    expect(Array.isArray(e.details) && e.details.length > 0, `details is a non-empty array: ${where}`).toBe(true);
    for (const problem of e.details as unknown[]) {
      const p = problem as Record<string, unknown>;
      expect(
        isPlainObject(problem) && typeof p.field === "string" && typeof p.message === "string" && Object.keys(p).length === 2,
        `each detail is {field, message}: ${where}`,
      ).toBe(true);
    }
  }
  return { kind: "error", error: e as Extract<Envelope, { kind: "error" }>["error"], meta: meta as Record<string, unknown> };
}

/** Integer header value, or NaN when absent or not a plain non-negative integer. */
export function intHeader(headers: Headers, name: string): number {
  const value = headers.get(name);
  return value !== null && /^\d+$/.test(value) ? Number(value) : Number.NaN;
}

/**
 * The X-RateLimit-* headers are present and agree with each other, the limit and the clock, and
 * RateLimit-Policy / RateLimit (draft-ietf-httpapi-ratelimit-headers) say the same in their terms.
 */
export function expectRateLimitHeaders(headers: Headers, limit: number, context: string, now = Date.now()) {
  const limitHeader = intHeader(headers, "x-ratelimit-limit");
  const remaining = intHeader(headers, "x-ratelimit-remaining");
  const reset = intHeader(headers, "x-ratelimit-reset");
  expect(limitHeader, `X-RateLimit-Limit: ${context}`).toBe(limit);
  expect(remaining >= 0 && remaining <= limit, `0 ≤ X-RateLimit-Remaining (${headers.get("x-ratelimit-remaining")}) ≤ ${limit}: ${context}`).toBe(true);
  // Epoch seconds at which the current 60 s window ends (docs/decisions/fixed-window-rate-limit.md).
  expect(
    reset >= Math.floor(now / 1000) - 1 && reset <= Math.ceil(now / 1000) + WINDOW_S + 1,
    `X-RateLimit-Reset (${headers.get("x-ratelimit-reset")}) is epoch seconds within the next window: ${context}`,
  ).toBe(true);
  expect(headers.get("ratelimit-policy"), `RateLimit-Policy: ${context}`).toBe(`"default";q=${limit};w=${WINDOW_S}`);
  const ietf = /^"default";r=(\d+);t=(\d+)$/.exec(headers.get("ratelimit") ?? "");
  expect(Number(ietf?.[1]), `RateLimit r equals X-RateLimit-Remaining (${headers.get("ratelimit")}): ${context}`).toBe(remaining);
  const secondsToReset = Number(ietf?.[2]);
  // The server computed `t` before `now`, by as long as the request took (seconds on a loaded
  // machine): so `t` may exceed the seconds left at `now`, never fall short of them.
  const untilReset = reset - now / 1000;
  expect(
    secondsToReset >= 1 && secondsToReset <= WINDOW_S && secondsToReset >= untilReset - 2 && secondsToReset <= untilReset + 10,
    `RateLimit t (${headers.get("ratelimit")}) is the seconds until X-RateLimit-Reset: ${context}`,
  ).toBe(true);
  return { limit: limitHeader, remaining, reset };
}
