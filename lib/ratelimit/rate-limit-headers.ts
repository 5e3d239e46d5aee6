import type { RateLimitResult } from "./types";

export interface RateLimitResponseFields {
  /** Sent on every /v1 response, 429 included. */
  headers: Record<string, string>;
  /** Whole seconds to wait, ≥ 1, for the 429 body's `error.retry_after`; only when refused. */
  retryAfter?: number;
}

export interface RateLimitPolicy {
  /**
   * The policy's name in `RateLimit` and `RateLimit-Policy` (a structured-field String, so
   * printable ASCII without `"` or `\`): it ties the two fields together for the client.
   */
  name: string;
  /** Length of the fixed window, in milliseconds (a whole number of seconds). */
  windowMs: number;
}

/** The per-key limit of /v1: one fixed window of a clock minute. */
export const DEFAULT_POLICY: RateLimitPolicy = { name: "default", windowMs: 60_000 };

/**
 * Turns a limiter answer into what goes on the wire, in two vocabularies with the same numbers:
 *
 * - `X-RateLimit-Limit/Remaining/Reset`, the names clients have always read. Reset is Unix epoch
 *   seconds, rounded up so a client that waits until then finds the window freed.
 * - `RateLimit-Policy` and `RateLimit` of draft-ietf-httpapi-ratelimit-headers (-08 to -11):
 *   structured-field lists of one item named after the policy, `q` (quota) and `w` (window,
 *   seconds), then `r` (remaining) and `t` (seconds until the quota resets). A fixed window maps
 *   onto them exactly: the whole quota `q` is back `t` seconds from now.
 *
 * `Retry-After` on a refusal carries the same wait as the body's `retry_after` and as `t`, never 0,
 * since a refused client retrying at once would only be refused again.
 */
export function rateLimitHeaders(
  result: RateLimitResult,
  now: number = Date.now(),
  policy: RateLimitPolicy = DEFAULT_POLICY,
): RateLimitResponseFields {
  const remaining = Math.max(0, result.remaining);
  // The window's end is at least a second away while it is open; never 0, as for Retry-After.
  const secondsToReset = Math.max(1, Math.ceil((result.reset - now) / 1000));
  const name = `"${policy.name}"`;
  const headers: Record<string, string> = {
    "X-RateLimit-Limit": String(result.limit),
    "X-RateLimit-Remaining": String(remaining),
    "X-RateLimit-Reset": String(Math.ceil(result.reset / 1000)),
    "RateLimit-Policy": `${name};q=${result.limit};w=${Math.round(policy.windowMs / 1000)}`,
    RateLimit: `${name};r=${remaining};t=${secondsToReset}`,
  };
  if (result.success) return { headers };
  headers["Retry-After"] = String(secondsToReset);
  return { headers, retryAfter: secondsToReset };
}
