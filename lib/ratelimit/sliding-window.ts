import type { RateLimitResult } from "./types";

/** Counters of one key: requests admitted in the current fixed window and in the one before. */
export interface SlidingWindowState {
  readonly windowMs: number;
  /** Index of the current fixed window: floor(time / windowMs). */
  readonly window: number;
  readonly current: number;
  readonly previous: number;
}

export interface SlidingWindowDecision {
  /** State to store; unchanged counts when the request was refused. */
  state: SlidingWindowState;
  result: RateLimitResult;
}

/**
 * One step of @upstash/ratelimit's `slidingWindow` (the single-region Lua script plus the JS
 * around it in v2.2.0), so the in-process store answers exactly as the Redis one: the previous
 * fixed window counts with weight (1 - elapsed fraction of the current one), floored; a request
 * is refused when that plus the current count has reached `max`; refused requests are not
 * counted; `reset` is the end of the current fixed window.
 */
export function slidingWindow(
  state: SlidingWindowState | undefined,
  now: number,
  max: number,
  windowMs: number,
): SlidingWindowDecision {
  let at = now;
  let window = Math.floor(at / windowMs);
  let current = 0;
  let previous = 0;
  if (state !== undefined && state.windowMs === windowMs) {
    if (window < state.window) {
      // The clock stepped back across a window edge: stay in the newest window seen, at its
      // start, where the previous window weighs fully — the strictest reading, never a reset.
      window = state.window;
      at = window * windowMs;
    }
    if (state.window === window) {
      current = state.current;
      previous = state.previous;
    } else if (state.window === window - 1) {
      previous = state.current;
    }
  }

  // Lua 5.1 computes `now % window` as a - floor(a / b) * b; doing the same keeps the floored
  // weight bit-identical to what Redis computes.
  const elapsed = at - Math.floor(at / windowMs) * windowMs;
  const weightedPrevious = Math.floor((1 - elapsed / windowMs) * previous);
  const reset = (window + 1) * windowMs;

  if (weightedPrevious + current >= max) {
    return {
      state: { windowMs, window, current, previous },
      result: { success: false, limit: max, remaining: 0, reset },
    };
  }
  const counted = current + 1;
  return {
    state: { windowMs, window, current: counted, previous },
    result: { success: true, limit: max, remaining: Math.max(0, max - (counted + weightedPrevious)), reset },
  };
}

/** True once neither of the state's windows can be read again at `now`. */
export function isSlidingWindowExpired(state: SlidingWindowState, now: number): boolean {
  return Math.floor(now / state.windowMs) > state.window + 1;
}
