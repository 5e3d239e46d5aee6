import type { RateLimitAlgorithm, StoreRateLimiter } from "./types";
import { UpstashRateLimiter } from "./upstash-rate-limiter";

export interface UpstashRestRateLimiterOptions {
  prefix?: string;
  /** Default `fixedWindow`. */
  algorithm?: RateLimitAlgorithm;
}

/**
 * Fixed- or sliding-window limiter on Upstash over its REST API (`UPSTASH_REDIS_REST_URL` and `_TOKEN`).
 * Upstash accepts its own script shebang, so its client is used directly, without the adapter.
 */
export async function createUpstashRestRateLimiter(
  url: string,
  token: string,
  options: UpstashRestRateLimiterOptions = {},
): Promise<StoreRateLimiter> {
  const { Redis } = await import("@upstash/redis");
  const redis = new Redis({
    url,
    token,
    // Retries with backoff would outlive the resilient wrapper's time budget and only pile up
    // requests behind an outage; the next call tries again anyway.
    retry: false,
    enableTelemetry: false,
  });
  const limiter = new UpstashRateLimiter(redis, options.prefix, options.algorithm);
  return {
    limit: (key, max, windowMs, count) => limiter.limit(key, max, windowMs, count),
    async close() {},
  };
}
