/**
 * The arithmetic of a market's backfill cursor, apart from the database: which window to read next,
 * and where the cursor stands after a page. Times are epoch milliseconds.
 *
 * A cursor holds the window read whole (`covered`), and the walk under way with the venue's token
 * for its next page. Walks only ever extend `covered` at one end (further back to a deeper `since`,
 * or forward to now after a pause), so `covered` stays one unbroken window with no gap inside.
 */
export interface CursorState {
  coveredSince: number | null;
  coveredUntil: number | null;
  walkSince: number | null;
  walkUntil: number | null;
  pageCursor: string | null;
}

export interface Window {
  since: number;
  until: number;
}

/** How old the newest read may get before a forward walk catches up (the live rounds record settlements meanwhile). */
export const FORWARD_AFTER_MS = 24 * 3_600_000;

/** The window the next page reads in: the walk under way, or a new one; null when nothing is left for `since`. */
export function nextWalk(state: CursorState, target: { since: number; now: number }): Window | null {
  if (state.walkSince !== null && state.walkUntil !== null) return { since: state.walkSince, until: state.walkUntil };
  if (state.coveredSince === null || state.coveredUntil === null) return target.since < target.now ? { since: target.since, until: target.now } : null;
  if (target.since < state.coveredSince) return { since: target.since, until: state.coveredSince };
  if (target.now - state.coveredUntil >= FORWARD_AFTER_MS) return { since: state.coveredUntil, until: target.now };
  return null;
}

/** What a page said, as the cursor needs it. */
export interface PageOutcome {
  /** Settlements in the answer. */
  received: number;
  /** Whether every one of them is older than the window, or newer than it. */
  allOlder: boolean;
  allNewer: boolean;
  /** The venue's token for the next page; null when it has no more. */
  next: string | null;
}

/** A page's outcome from its settlement times. */
export function pageOutcome(times: readonly number[], window: Window, next: string | null): PageOutcome {
  return {
    received: times.length,
    allOlder: times.length > 0 && times.every((time) => time < window.since),
    allNewer: times.length > 0 && times.every((time) => time > window.until),
    next,
  };
}

/**
 * The cursor after a page of `walk` was stored. The walk ends when the venue has nothing further,
 * answers an empty page, hands back the token it was given (it would answer the same page forever),
 * or answers a page lying wholly beyond the window in the walk's direction: older than it, or newer
 * than it for a venue paged forward by time. A page wholly newer does not end a walk of another
 * venue: page-numbered venues answer newest first whatever the window, so a walk reaching back
 * passes pages newer than it first. The window then joins `covered`.
 */
export function afterPage(state: CursorState, walk: Window, page: PageOutcome, forwardByTime: boolean): CursorState {
  const ended = page.next === null || page.received === 0 || page.allOlder || (forwardByTime && page.allNewer) || page.next === state.pageCursor;
  if (!ended) return { ...state, walkSince: walk.since, walkUntil: walk.until, pageCursor: page.next };
  return {
    coveredSince: Math.min(walk.since, state.coveredSince ?? walk.since),
    coveredUntil: Math.max(walk.until, state.coveredUntil ?? walk.until),
    walkSince: null,
    walkUntil: null,
    pageCursor: null,
  };
}
