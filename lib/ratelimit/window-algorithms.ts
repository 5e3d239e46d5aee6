import { fixedWindow, isFixedWindowExpired, mergeFixedWindow } from "./fixed-window";
import { isSlidingWindowExpired, slidingWindow } from "./sliding-window";
import type { RateLimitAlgorithm, RateLimitResult } from "./types";

export interface WindowDecision<S> {
  state: S;
  result: RateLimitResult;
}

/** What the in-process store needs of an algorithm: its pure step, and when a key's state can go. */
export interface WindowAlgorithm<S> {
  step(state: S | undefined, now: number, max: number, windowMs: number): WindowDecision<S>;
  expired(state: S, now: number): boolean;
  /**
   * Folds a shared store's answer into this process's state (see `mergeFixedWindow`). Absent when
   * the shared answer does not tell the counts: the sliding window's `remaining` mixes the current
   * count with the previous window's weight, so its fallback starts from this process's own counts.
   */
  merge?(state: S | undefined, shared: RateLimitResult, windowMs: number): WindowDecision<S>;
}

export const WINDOW_ALGORITHMS: { [A in RateLimitAlgorithm]: WindowAlgorithm<unknown> } = {
  fixedWindow: { step: fixedWindow, expired: isFixedWindowExpired, merge: mergeFixedWindow } as WindowAlgorithm<unknown>,
  slidingWindow: { step: slidingWindow, expired: isSlidingWindowExpired } as WindowAlgorithm<unknown>,
};
