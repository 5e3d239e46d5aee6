import { Ratelimit } from "@upstash/ratelimit";
import { assertLimitArguments } from "./assert-limit-arguments";
import type { UpstashScriptClient } from "./ioredis-script-adapter";
import type { RateLimitAlgorithm, RateLimiter, RateLimitResult } from "./types";

type RatelimitRedis = ConstructorParameters<typeof Ratelimit>[0]["redis"];

/** Redis keys are `<prefix>:<key>:<window index>`. */
export const DEFAULT_RATE_LIMIT_PREFIX = "ratelimit";

/**
 * The shared-store limiter: @upstash/ratelimit's fixed or sliding window over either an
 * `@upstash/redis` client or the ioredis adapter. Ratelimit fixes its limit at construction while
 * ours arrive per call, so one instance is kept per (max, window); they share the prefix, so a key
 * that changes tier keeps its count.
 */
export class UpstashRateLimiter implements RateLimiter {
  private readonly limiters = new Map<string, Ratelimit>();

  constructor(
    private readonly redis: UpstashScriptClient,
    private readonly prefix: string = DEFAULT_RATE_LIMIT_PREFIX,
    private readonly algorithm: RateLimitAlgorithm = "fixedWindow",
  ) {}

  /** `count` requests at once (default 1): the window scripts add it with INCRBY and expire a new key as usual. */
  async limit(key: string, max: number, windowMs: number, count = 1): Promise<RateLimitResult> {
    assertLimitArguments(max, windowMs);
    if (!Number.isInteger(count) || count < 1) throw new RangeError(`count must be a positive integer, got ${count}`);
    const limiter = this.limiterFor(max, windowMs);
    const { success, limit, remaining, reset } = await (count === 1 ? limiter.limit(key) : limiter.limit(key, { rate: count }));
    return { success, limit, remaining, reset };
  }

  private limiterFor(max: number, windowMs: number): Ratelimit {
    const id = `${max}/${windowMs}`;
    let limiter = this.limiters.get(id);
    if (limiter === undefined) {
      limiter = new Ratelimit({
        // The adapter implements only what the window algorithms call (evalsha, eval); Ratelimit's
        // type asks for get/set too, used only by dynamic limits, which stay off.
        redis: this.redis as unknown as RatelimitRedis,
        limiter: Ratelimit[this.algorithm](max, `${windowMs} ms`),
        prefix: this.prefix,
        // The ephemeral cache keeps refusing a key until the fixed window ends (even after a
        // sliding window has freed slots) and lives in process memory: off, so every process and
        // the in-memory store give the same answers.
        ephemeralCache: false,
        // Its timeout admits the request (success: true) when Redis is slow; the resilient
        // wrapper falls back to the in-process window instead.
        timeout: 0,
        analytics: false,
        enableTelemetry: false,
      });
      this.limiters.set(id, limiter);
    }
    return limiter;
  }
}
