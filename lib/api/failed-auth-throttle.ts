import { AppError } from "@/lib/errors";
import { rateLimitHeaders, type RateLimiter } from "@/lib/ratelimit";

/** Failed key verifications an address may cause per minute before it is refused without a lookup. */
export const FAILED_AUTH_LIMIT = 20;
export const FAILED_AUTH_WINDOW_MS = 60_000;

/**
 * Addresses refused until a time, per limiter (so each test's services start clean). The failures
 * are counted in the limiter's store, shared by every process; a store cannot be asked for a count
 * without adding to it, so the refusal itself is remembered here: each process looks a key up for
 * an over-limit address at most once more (its first failure past the limit) before refusing it.
 */
const blockedByLimiter = new WeakMap<RateLimiter, Map<string, number>>();

function blockedOf(limiter: RateLimiter): Map<string, number> {
  let blocked = blockedByLimiter.get(limiter);
  if (!blocked) blockedByLimiter.set(limiter, (blocked = new Map()));
  return blocked;
}

/** The address limit's own name in `RateLimit` / `RateLimit-Policy`, so it is not mistaken for the key's. */
const FAILED_AUTH_POLICY = { name: "failed_auth", windowMs: FAILED_AUTH_WINDOW_MS };

function refusal(until: number, now: number): AppError {
  const result = { success: false, limit: FAILED_AUTH_LIMIT, remaining: 0, reset: until };
  const { headers, retryAfter } = rateLimitHeaders(result, now, FAILED_AUTH_POLICY);
  return new AppError("RATE_LIMITED", undefined, { retryAfter, headers });
}

/**
 * Throws 429 RATE_LIMITED when `address` has had too many failed verifications in the last minute;
 * called before the key is looked up, so a refused request costs no database read. Without an
 * address (nothing in front of the app set X-Real-IP) there is nothing to count against.
 */
export function assertNotThrottled(limiter: RateLimiter, address: string | undefined, now = Date.now()): void {
  if (!address) return;
  const blocked = blockedOf(limiter);
  const until = blocked.get(address);
  if (until === undefined) return;
  if (until > now) throw refusal(until, now);
  blocked.delete(address);
}

/**
 * Counts one failed verification for `address` in the limiter's store; the failure past the limit
 * starts the refusal (and is answered 429 itself). Expired refusals are dropped as new ones start,
 * so the map holds only addresses refused within the last window.
 */
export async function recordFailedAuth(limiter: RateLimiter, address: string | undefined): Promise<void> {
  if (!address) return;
  const result = await limiter.limit(`authfail:${address}`, FAILED_AUTH_LIMIT, FAILED_AUTH_WINDOW_MS);
  if (result.success) return;
  const now = Date.now();
  const blocked = blockedOf(limiter);
  for (const [other, until] of blocked) if (until <= now) blocked.delete(other);
  blocked.set(address, result.reset);
  throw refusal(result.reset, now);
}
