/**
 * How many requests the key's limiter has counted in the current minute, read back from the
 * rate-limit headers it produced (lib/ratelimit/rate-limit-headers.ts): limit − remaining. The
 * limiter is shared by every process (Redis), so this is the key's whole count, not one process's
 * share; a refused request reads as the full limit. 0 when no headers were set (the limiter failed).
 */
export function windowCount(headers: Readonly<Record<string, string>> | undefined): number {
  if (!headers) return 0;
  const used = Number(headers["X-RateLimit-Limit"]) - Number(headers["X-RateLimit-Remaining"]);
  return used > 0 ? used : 0;
}
