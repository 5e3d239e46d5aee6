/**
 * The one rate-limiter contract the /v1 app depends on. Every store (in-process, Redis through
 * ioredis, Upstash REST) answers the same way for the same sequence of calls, so callers never
 * need to know which one is configured.
 */

/** Outcome of one `limit()` call. The sliding window counts a request only when admitted; the fixed window counts refused ones too, as Upstash's does. */
export interface RateLimitResult {
  /** Whether the request may proceed. */
  success: boolean;
  /** Requests allowed per window (the `max` that was passed in). */
  limit: number;
  /** Requests left in the window after this one; 0 when refused. */
  remaining: number;
  /**
   * Epoch milliseconds at which the current fixed window ends, which is how @upstash/ratelimit
   * defines `reset`. Under the fixed window that is exact: the whole limit is available again
   * then. Under the sliding window at least one slot is free by then, but the previous window
   * still weighs, so a client may be refused again soon after.
   */
  reset: number;
}

export interface RateLimiter {
  /**
   * Counts one request for `key` against `max` requests per window of `windowMs`.
   * `key` is stored as-is (in Redis, in clear text): pass a stable, non-secret identifier such
   * as the API key's id, never the secret itself. Keep `windowMs` fixed per key.
   */
  limit(key: string, max: number, windowMs: number): Promise<RateLimitResult>;
}

export type RateLimitStore = "memory" | "redis" | "upstash";

/**
 * `fixedWindow` (the /v1 limit): windows start at multiples of the window since the epoch, and
 * `reset` is exact, the moment the whole limit is back; a client can get up to twice the limit
 * across one window edge. `slidingWindow` (sign-in attempts): the previous window weighs by how
 * much of it is still inside the last `windowMs`, which smooths that edge and is what the
 * progressive sign-in delays need, but `reset` only promises one free slot.
 */
export type RateLimitAlgorithm = "fixedWindow" | "slidingWindow";

/** What /healthz shows about the limiter. */
export interface RateLimitStatus {
  store: RateLimitStore;
  /** True while a shared store is unreachable and each process enforces limits on its own. */
  degraded: boolean;
  /** Why the shared store was last abandoned; only present while degraded. */
  lastError?: string;
  /** ISO 8601 time of the last transition between healthy and degraded. */
  since?: string;
}

/** A limiter as the app holds it: the contract plus what an operator and a shutdown need. */
export interface RateLimiterService extends RateLimiter {
  status(): RateLimitStatus;
  close(): Promise<void>;
}

/** A shared store before the resilience wrapper: it may reject or hang, and owns a connection. */
export interface StoreRateLimiter extends RateLimiter {
  /**
   * As `RateLimiter.limit`, counting `count` requests at once (default 1): how the requests a
   * process admitted from memory while the store was away are carried into the store's window.
   */
  limit(key: string, max: number, windowMs: number, count?: number): Promise<RateLimitResult>;
  close(): Promise<void>;
}
