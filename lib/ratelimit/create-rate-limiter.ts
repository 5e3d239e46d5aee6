import { MemoryRateLimiter } from "./memory-rate-limiter";
import { ResilientRateLimiter, type ResilienceOptions } from "./resilient-rate-limiter";
import type { RateLimitAlgorithm, RateLimiterService } from "./types";

/** `process.env` or any subset of it; only these variables are read. */
export interface RateLimiterEnv {
  [name: string]: string | undefined;
  REDIS_URL?: string | undefined;
  /** How long a shared store may take before this process limits from memory (default 50 ms). */
  RATE_LIMIT_STORE_TIMEOUT_MS?: string | undefined;
  UPSTASH_REDIS_REST_URL?: string | undefined;
  UPSTASH_REDIS_REST_TOKEN?: string | undefined;
}

export interface CreateRateLimiterOptions extends ResilienceOptions {
  /** Redis key prefix, so services sharing a Redis do not share counters. */
  prefix?: string;
  /** Default `fixedWindow`; see `RateLimitAlgorithm`. */
  algorithm?: RateLimitAlgorithm;
}

/**
 * Picks the store from the environment: `REDIS_URL` (any Redis, through ioredis), else
 * `UPSTASH_REDIS_REST_URL` with `UPSTASH_REDIS_REST_TOKEN` (Upstash over HTTPS), else the
 * in-process window, correct only while one process serves the API. Shared stores are imported
 * on demand, so the embedded path never loads their client libraries.
 */
export function createRateLimiter(
  env: RateLimiterEnv = process.env,
  options: CreateRateLimiterOptions = {},
): RateLimiterService {
  const { prefix, algorithm = "fixedWindow", ...configured } = options;
  const storeOptions = prefix === undefined ? { algorithm } : { prefix, algorithm };
  const timeoutMs = Number(nonEmpty(env.RATE_LIMIT_STORE_TIMEOUT_MS));
  const resilience = configured.timeoutMs === undefined && timeoutMs > 0 ? { ...configured, timeoutMs } : configured;
  const redisUrl = nonEmpty(env.REDIS_URL);
  if (redisUrl !== undefined) {
    return new ResilientRateLimiter({
      ...resilience,
      store: "redis",
      algorithm,
      primary: import("./ioredis-rate-limiter").then((m) => m.createIoredisRateLimiter(redisUrl, storeOptions)),
    });
  }

  const upstashUrl = nonEmpty(env.UPSTASH_REDIS_REST_URL);
  if (upstashUrl !== undefined) {
    const token = nonEmpty(env.UPSTASH_REDIS_REST_TOKEN);
    if (token === undefined) {
      throw new Error("UPSTASH_REDIS_REST_URL is set but UPSTASH_REDIS_REST_TOKEN is not");
    }
    return new ResilientRateLimiter({
      ...resilience,
      store: "upstash",
      algorithm,
      primary: import("./upstash-rest-rate-limiter").then((m) => m.createUpstashRestRateLimiter(upstashUrl, token, storeOptions)),
    });
  }

  const memory = new MemoryRateLimiter(resilience.now === undefined ? { algorithm } : { now: resilience.now, algorithm });
  return {
    limit: (key, max, windowMs) => memory.limit(key, max, windowMs),
    status: () => ({ store: "memory", degraded: false }),
    close: async () => {},
  };
}

function nonEmpty(value: string | undefined): string | undefined {
  const trimmed = value?.trim();
  return trimmed === undefined || trimmed === "" ? undefined : trimmed;
}
