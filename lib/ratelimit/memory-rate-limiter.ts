import { assertLimitArguments } from "./assert-limit-arguments";
import { isSlidingWindowExpired, slidingWindow, type SlidingWindowState } from "./sliding-window";
import type { RateLimiter, RateLimitResult } from "./types";

export interface MemoryRateLimiterOptions {
  /** Epoch-milliseconds clock; injected by tests. */
  now?: () => number;
}

/**
 * Sliding-window limiter held in this process: the embedded store, and the fallback while a
 * shared store is unreachable. Only correct for a single process.
 */
export class MemoryRateLimiter implements RateLimiter {
  private readonly states = new Map<string, SlidingWindowState>();
  private readonly now: () => number;
  private nextSweepAt = Number.NEGATIVE_INFINITY;

  constructor(options: MemoryRateLimiterOptions = {}) {
    this.now = options.now ?? Date.now;
  }

  async limit(key: string, max: number, windowMs: number): Promise<RateLimitResult> {
    return this.limitNow(key, max, windowMs);
  }

  /** Synchronous form for callers that should not pay for a promise. */
  limitNow(key: string, max: number, windowMs: number): RateLimitResult {
    assertLimitArguments(max, windowMs);
    const now = this.now();
    this.sweep(now, windowMs);
    const decision = slidingWindow(this.states.get(key), now, max, windowMs);
    this.states.set(key, decision.state);
    return decision.result;
  }

  /** Keys currently held; exposed so tests can check that memory stays bounded. */
  get size(): number {
    return this.states.size;
  }

  // Keys that went quiet for two windows can never count again; dropping them at most once per
  // window keeps memory proportional to recently active keys at O(1) amortised cost per call.
  private sweep(now: number, windowMs: number): void {
    if (now < this.nextSweepAt) return;
    this.nextSweepAt = now + windowMs;
    for (const [key, state] of this.states) {
      if (isSlidingWindowExpired(state, now)) this.states.delete(key);
    }
  }
}
