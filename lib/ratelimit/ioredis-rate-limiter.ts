import type { RedisOptions } from "ioredis";
import { createIoredisScriptAdapter } from "./ioredis-script-adapter";
import type { RateLimitAlgorithm, StoreRateLimiter } from "./types";
import { UpstashRateLimiter } from "./upstash-rate-limiter";

export interface IoredisRateLimiterOptions {
  prefix?: string;
  /** Default `fixedWindow`. */
  algorithm?: RateLimitAlgorithm;
  /** Overrides of the fail-fast connection options below (tests shorten the reconnect delay). */
  redisOptions?: RedisOptions;
}

// Every option here makes a Redis outage surface as a prompt error instead of a queued command,
// so the resilient wrapper can fall back to the in-process window well inside its time budget.
const FAIL_FAST: RedisOptions = {
  enableOfflineQueue: false,
  maxRetriesPerRequest: 0,
  connectTimeout: 1_000,
  // Bounds commands sent to a server that stopped answering, so they do not pile up in memory
  // long after the caller has moved on.
  commandTimeout: 1_000,
  // Keep reconnecting, never give up: the limiter must return to Redis when it comes back.
  retryStrategy: (attempt) => Math.min(attempt * 200, 2_000),
};

/**
 * Fixed- or sliding-window limiter on any Redis (`REDIS_URL`), through @upstash/ratelimit and the ioredis
 * adapter. ioredis is imported here, on first use, so the embedded path never loads it.
 */
export async function createIoredisRateLimiter(
  url: string,
  options: IoredisRateLimiterOptions = {},
): Promise<StoreRateLimiter> {
  const { Redis } = await import("ioredis");
  const client = new Redis(url, { ...FAIL_FAST, ...options.redisOptions });
  // Without a listener ioredis prints every reconnect failure; failures reach the resilient
  // wrapper through rejected commands, which logs once per transition.
  client.on("error", () => {});
  const limiter = new UpstashRateLimiter(createIoredisScriptAdapter(client), options.prefix, options.algorithm);
  return {
    limit: (key, max, windowMs, count) => limiter.limit(key, max, windowMs, count),
    async close() {
      client.disconnect();
    },
  };
}
