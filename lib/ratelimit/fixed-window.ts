import type { RateLimitResult } from "./types";

/** Count of one key in one fixed window: the requests made since the window began, refused ones included. */
export interface FixedWindowState {
  readonly windowMs: number;
  /** Index of the window: floor(time / windowMs). */
  readonly window: number;
  readonly count: number;
}

export interface FixedWindowDecision {
  /** State to store. */
  state: FixedWindowState;
  result: RateLimitResult;
}

/**
 * One step of a fixed window, answering exactly as @upstash/ratelimit's `fixedWindow` does in
 * Redis: windows start at multiples of `windowMs` since the epoch; a request is admitted while
 * the window's count is below `max`; `reset` is the end of the window, when the whole limit is
 * available again, so a client that waits until `reset` is admitted.
 */
export function fixedWindow(state: FixedWindowState | undefined, now: number, max: number, windowMs: number): FixedWindowDecision {
  let window = Math.floor(now / windowMs);
  let count = 0;
  if (state !== undefined && state.windowMs === windowMs) {
    // A clock that stepped back stays in the newest window seen: a step back must never reset a count.
    if (state.window >= window) {
      window = state.window;
      count = state.count;
    }
  }
  // Refused requests count too, as Upstash's INCR counts them: the answers only differ from not
  // counting them when the limit changes mid-window (a tier change), and then they must still agree.
  const counted = count + 1;
  const success = counted <= max;
  return {
    state: { windowMs, window, count: counted },
    result: { success, limit: max, remaining: Math.max(0, max - counted), reset: (window + 1) * windowMs },
  };
}

/**
 * Folds a shared store's answer into this process's own count of the same window, and answers
 * with the stricter of the two. The process keeps counting while the shared store answers, so a
 * fallback to memory (a Redis outage, or an answer later than the time budget) resumes from the
 * shared count instead of from zero; and requests admitted from memory during a fallback, which
 * the shared store never saw, still count once it answers again.
 */
export function mergeFixedWindow(
  state: FixedWindowState | undefined,
  shared: RateLimitResult,
  windowMs: number,
): FixedWindowDecision {
  const window = Math.floor(shared.reset / windowMs) - 1;
  // This process's clock already moved on to a later window: keep its count, take the answer.
  if (state !== undefined && state.windowMs === windowMs && state.window > window) return { state, result: shared };
  const own = state !== undefined && state.windowMs === windowMs && state.window === window ? state.count : 0;
  // An admitted answer tells the shared count exactly; a refused one only that it is past the limit.
  const sharedCount = shared.success ? shared.limit - shared.remaining : shared.limit + 1;
  const count = Math.max(own + 1, sharedCount);
  const success = shared.success && count <= shared.limit;
  return {
    state: { windowMs, window, count },
    result: { success, limit: shared.limit, remaining: success ? shared.limit - count : 0, reset: shared.reset },
  };
}

/** True once the state's window has ended. */
export function isFixedWindowExpired(state: FixedWindowState, now: number): boolean {
  return Math.floor(now / state.windowMs) > state.window;
}
