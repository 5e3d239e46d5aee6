import { assertLimitArguments } from "./assert-limit-arguments";
import type { RateLimitAlgorithm, RateLimiter, RateLimitResult } from "./types";
import { WINDOW_ALGORITHMS, type WindowAlgorithm } from "./window-algorithms";

export interface MemoryRateLimiterOptions {
  /** Epoch-milliseconds clock; injected by tests. */
  now?: () => number;
  /** Default `fixedWindow`, the /v1 limit's. */
  algorithm?: RateLimitAlgorithm;
}

/**
 * Limiter held in this process: the embedded store, and the fallback while a shared store is
 * unreachable. Only correct for a single process.
 */
export class MemoryRateLimiter implements RateLimiter {
  readonly algorithm: RateLimitAlgorithm;
  private readonly steps: WindowAlgorithm<unknown>;
  private readonly states = new Map<string, unknown>();
  private readonly now: () => number;
  private nextSweepAt = Number.NEGATIVE_INFINITY;

  constructor(options: MemoryRateLimiterOptions = {}) {
    this.now = options.now ?? (() => Date.now()); // read at each call, so a faked clock is followed
    this.algorithm = options.algorithm ?? "fixedWindow";
    this.steps = WINDOW_ALGORITHMS[this.algorithm];
  }

  async limit(key: string, max: number, windowMs: number): Promise<RateLimitResult> {
    return this.limitNow(key, max, windowMs);
  }

  /** Synchronous form for callers that should not pay for a promise. */
  limitNow(key: string, max: number, windowMs: number): RateLimitResult {
    assertLimitArguments(max, windowMs);
    const now = this.now();
    this.sweep(now, windowMs);
    const decision = this.steps.step(this.states.get(key), now, max, windowMs);
    this.states.set(key, decision.state);
    return decision.result;
  }

  /**
   * Records a shared store's answer for `key` in this process's counts and returns the stricter of
   * the two (see `mergeFixedWindow`); an algorithm that cannot merge returns the answer unchanged.
   */
  merge(key: string, shared: RateLimitResult, windowMs: number): RateLimitResult {
    if (!this.steps.merge) return shared;
    this.sweep(this.now(), windowMs);
    const decision = this.steps.merge(this.states.get(key), shared, windowMs);
    this.states.set(key, decision.state);
    return decision.result;
  }

  /** Keys currently held; exposed so tests can check that memory stays bounded. */
  get size(): number {
    return this.states.size;
  }

  // Keys whose windows can never count again are dropped at most once per window, which keeps
  // memory proportional to recently active keys at O(1) amortised cost per call.
  private sweep(now: number, windowMs: number): void {
    if (now < this.nextSweepAt) return;
    this.nextSweepAt = now + windowMs;
    for (const [key, state] of this.states) {
      if (this.steps.expired(state, now)) this.states.delete(key);
    }
  }
}
