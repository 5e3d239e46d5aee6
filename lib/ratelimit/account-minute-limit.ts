import { AppError } from "@/lib/errors";
import { rateLimitScale } from "@/lib/plans";
import type { RateLimiter } from "./types";

/**
 * Counts one request of `what` for an account in the current minute, under `perMinute` (multiplied
 * by RATE_LIMIT_SCALE, which only tests and benchmarks set, as every key's limit is); past it, 429
 * RATE_LIMITED naming the limit, with the seconds until the window ends. For the work an account
 * asks for that costs the service more than a request does (signed sends, reads of venues' books).
 */
export async function assertAccountMinuteLimit(
  limiter: RateLimiter,
  bucket: string,
  userId: string,
  perMinute: number,
  what: string,
  now = Date.now(),
): Promise<void> {
  const limit = Math.max(1, Math.floor(perMinute * rateLimitScale()));
  const result = await limiter.limit(`${bucket}:${userId}`, limit, 60_000);
  if (result.success) return;
  const retryAfter = Math.max(1, Math.ceil((result.reset - now) / 1_000));
  throw new AppError("RATE_LIMITED", `At most ${limit} ${what} a minute per account`, { retryAfter });
}
