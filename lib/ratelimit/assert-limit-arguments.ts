/**
 * Rejects arguments every store would otherwise treat differently: Upstash turns the window into
 * a duration string and counts in whole requests, so both must be integers for the stores to agree.
 */
export function assertLimitArguments(max: number, windowMs: number): void {
  if (!Number.isSafeInteger(max) || max < 0) {
    throw new RangeError(`Rate limit max must be a non-negative integer, got ${max}`);
  }
  if (!Number.isSafeInteger(windowMs) || windowMs < 1) {
    throw new RangeError(`Rate limit window must be a positive integer of milliseconds, got ${windowMs}`);
  }
}
