import type { RateLimitResult } from "./types";

export interface RateLimitResponseFields {
  /** Sent on every /v1 response, 429 included. */
  headers: Record<string, string>;
  /** Whole seconds to wait, ≥ 1, for the 429 body's `error.retry_after`; only when refused. */
  retryAfter?: number;
}

/**
 * Turns a limiter answer into what the spec puts on the wire. `X-RateLimit-Reset` is Unix epoch
 * seconds, rounded up so a client that waits until then finds the window freed; `Retry-After`
 * carries the same wait as the body's `retry_after`, never 0, since a refused client retrying
 * at once would only be refused again.
 */
export function rateLimitHeaders(result: RateLimitResult, now: number = Date.now()): RateLimitResponseFields {
  const headers: Record<string, string> = {
    "X-RateLimit-Limit": String(result.limit),
    "X-RateLimit-Remaining": String(Math.max(0, result.remaining)),
    "X-RateLimit-Reset": String(Math.ceil(result.reset / 1000)),
  };
  if (result.success) return { headers };
  const retryAfter = Math.max(1, Math.ceil((result.reset - now) / 1000));
  headers["Retry-After"] = String(retryAfter);
  return { headers, retryAfter };
}
