import { AppError } from "@/lib/errors";
import type { RateLimiter } from "@/lib/ratelimit";
import { rateLimitScale } from "@/lib/plans";

/**
 * Test events, redeliveries and replays an account may ask for per minute, whichever door (/v1 or
 * Account → Webhooks) and mode: each is a signed POST the service sends on the caller's word, so
 * without a bound an account could aim the service at one host as fast as it can click.
 */
export const MANUAL_SENDS_PER_MINUTE = 20;
const WINDOW_MS = 60_000;

/** Counts one manual send for the account; past the limit, 429 RATE_LIMITED with the seconds until the window ends. */
export async function assertManualSendAllowed(limiter: RateLimiter, userId: string, now = Date.now()): Promise<void> {
  // RATE_LIMIT_SCALE (tests and benchmarks only) multiplies this limit as it does every key's.
  const limit = Math.max(1, Math.floor(MANUAL_SENDS_PER_MINUTE * rateLimitScale()));
  const result = await limiter.limit(`webhook-manual:${userId}`, limit, WINDOW_MS);
  if (result.success) return;
  const retryAfter = Math.max(1, Math.ceil((result.reset - now) / 1_000));
  throw new AppError("RATE_LIMITED", `At most ${limit} test events, redeliveries and replays a minute per account`, { retryAfter });
}
