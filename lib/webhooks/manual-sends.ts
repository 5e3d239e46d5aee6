import type { RateLimiter } from "@/lib/ratelimit";
import { assertAccountMinuteLimit } from "@/lib/ratelimit/account-minute-limit";

/**
 * Test events, redeliveries and replays an account may ask for per minute, whichever door (/v1 or
 * Account → Webhooks) and mode: each is a signed POST the service sends on the caller's word, so
 * without a bound an account could aim the service at one host as fast as it can click.
 */
export const MANUAL_SENDS_PER_MINUTE = 20;

/** Counts one manual send for the account; past the limit, 429 RATE_LIMITED with the seconds until the window ends. */
export function assertManualSendAllowed(limiter: RateLimiter, userId: string, now = Date.now()): Promise<void> {
  return assertAccountMinuteLimit(limiter, "webhook-manual", userId, MANUAL_SENDS_PER_MINUTE, "test events, redeliveries and replays", now);
}
