import { createHash } from "node:crypto";
import { addressGroup } from "@/lib/config/address-group";
import { AppError } from "@/lib/errors";
import { DISPLAY_SECRET_CHARS } from "@/lib/keys/format";
import { KEY_PREFIXES } from "@/lib/keys/mode";
import { rateLimitHeaders, type RateLimiter } from "@/lib/ratelimit";

/** Failed verifications of one bucket (an address and a key prefix) per minute before it is refused without a lookup. */
export const FAILED_AUTH_LIMIT = 20;
export const FAILED_AUTH_WINDOW_MS = 60_000;

const KEY_SHAPE = /^svc_sk_(live|test)_[0-9A-Za-z]/;
const PREFIX_LENGTH = KEY_PREFIXES.live.length + DISPLAY_SECRET_CHARS;

/**
 * What failed verifications are counted against: the client's address (an IPv6 one by its /64)
 * and the presented key's prefix, its mode and first 8 secret characters (what the account area
 * shows), or a digest of the token when it has no key's shape. Per address alone, 20 forgeries
 * from one office behind NAT would lock every colleague's valid key out; per prefix too, a forger
 * fills only the buckets of the keys it sends, and a valid key shares one only with forgeries of
 * its own displayed prefix. Pure.
 */
export function failedAuthBucket(address: string, token: string): string {
  const prefix = KEY_SHAPE.test(token)
    ? token.slice(0, PREFIX_LENGTH)
    : `#${createHash("sha256").update(token).digest("base64url").slice(0, 16)}`;
  return `${addressGroup(address)}|${prefix}`;
}

/**
 * Buckets refused until a time, per limiter (so each test's services start clean). The failures
 * are counted in the limiter's store, shared by every process; a store cannot be asked for a count
 * without adding to it, so the refusal itself is remembered here: each process looks a key up for
 * an over-limit bucket at most once more (its first failure past the limit) before refusing it.
 */
const blockedByLimiter = new WeakMap<RateLimiter, Map<string, number>>();

function blockedOf(limiter: RateLimiter): Map<string, number> {
  let blocked = blockedByLimiter.get(limiter);
  if (!blocked) blockedByLimiter.set(limiter, (blocked = new Map()));
  return blocked;
}

/** The throttle's own name in `RateLimit` / `RateLimit-Policy`, so it is not mistaken for the key's. */
const FAILED_AUTH_POLICY = { name: "failed_auth", windowMs: FAILED_AUTH_WINDOW_MS };

function refusal(until: number, now: number): AppError {
  const result = { success: false, limit: FAILED_AUTH_LIMIT, remaining: 0, reset: until };
  const { headers, retryAfter } = rateLimitHeaders(result, now, FAILED_AUTH_POLICY);
  return new AppError("RATE_LIMITED", undefined, { retryAfter, headers });
}

/**
 * Throws 429 RATE_LIMITED when `bucket` (failedAuthBucket) has had too many failed verifications in
 * the last minute; called before the key is looked up, so a refused request costs no database read.
 * Without a bucket (nothing in front of the app set X-Real-IP) there is nothing to count against.
 */
export function assertNotThrottled(limiter: RateLimiter, bucket: string | undefined, now = Date.now()): void {
  if (!bucket) return;
  const blocked = blockedOf(limiter);
  const until = blocked.get(bucket);
  if (until === undefined) return;
  if (until > now) throw refusal(until, now);
  blocked.delete(bucket);
}

/**
 * Counts one failed verification for `bucket` in the limiter's store; the failure past the limit
 * starts the refusal (and is answered 429 itself). Expired refusals are dropped as new ones start,
 * so the map holds only buckets refused within the last window.
 */
export async function recordFailedAuth(limiter: RateLimiter, bucket: string | undefined): Promise<void> {
  if (!bucket) return;
  const result = await limiter.limit(`authfail:${bucket}`, FAILED_AUTH_LIMIT, FAILED_AUTH_WINDOW_MS);
  if (result.success) return;
  const now = Date.now();
  const blocked = blockedOf(limiter);
  for (const [other, until] of blocked) if (until <= now) blocked.delete(other);
  blocked.set(bucket, result.reset);
  throw refusal(result.reset, now);
}
