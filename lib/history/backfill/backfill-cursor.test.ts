import { describe, expect, it } from "vitest";
import { afterPage, FORWARD_AFTER_MS, nextWalk, pageOutcome, type CursorState } from "./backfill-cursor";
import { depthSince } from "./backfill-venue";

const DAY = 86_400_000;
const NOW = Date.UTC(2026, 11, 1);
const fresh: CursorState = { coveredSince: null, coveredUntil: null, walkSince: null, walkUntil: null, pageCursor: null };

describe("a backfill cursor", () => {
  it("starts with the whole depth asked, and nothing when the depth is empty", () => {
    expect(nextWalk(fresh, { since: NOW - 365 * DAY, now: NOW })).toEqual({ since: NOW - 365 * DAY, until: NOW });
    expect(nextWalk(fresh, { since: NOW, now: NOW })).toBeNull();
  });

  it("keeps the walk under way, with its window fixed, until the venue has no further page", () => {
    const walk = { since: NOW - 10 * DAY, until: NOW };
    const first = afterPage(fresh, walk, pageOutcome([walk.since, walk.since + DAY], walk, "t1"), false);
    expect(first).toMatchObject({ walkSince: walk.since, walkUntil: walk.until, pageCursor: "t1", coveredSince: null });
    // Later, with a clock that moved on, the same window continues.
    expect(nextWalk(first, { since: NOW - 10 * DAY, now: NOW + 5 * DAY })).toEqual(walk);
    const second = afterPage(first, walk, pageOutcome([walk.until], walk, null), false);
    expect(second).toEqual({ coveredSince: walk.since, coveredUntil: walk.until, walkSince: null, walkUntil: null, pageCursor: null });
    expect(nextWalk(second, { since: NOW - 10 * DAY, now: NOW + 1_000 })).toBeNull();
  });

  it("ends a walk on an empty page, a page older than the window, or the token it was given", () => {
    const walk = { since: DAY, until: 2 * DAY };
    const walking = { ...fresh, walkSince: DAY, walkUntil: 2 * DAY, pageCursor: "p2" };
    const inside = [DAY + 1_000];
    expect(afterPage(walking, walk, pageOutcome([], walk, "p3"), false).walkSince).toBeNull();
    expect(afterPage(walking, walk, pageOutcome([0, 1_000], walk, "p3"), false).walkSince).toBeNull();
    expect(afterPage(walking, walk, pageOutcome(inside, walk, "p2"), false).walkSince).toBeNull();
    expect(afterPage(walking, walk, pageOutcome([0, ...inside], walk, "p3"), false).pageCursor).toBe("p3");
  });

  it("passes pages newer than the window going back (newest-first paging), and stops on them going forward by time", () => {
    const walk = { since: DAY, until: 2 * DAY };
    const newer = pageOutcome([3 * DAY, 4 * DAY], walk, "p2");
    expect(newer).toEqual({ received: 2, allOlder: false, allNewer: true, next: "p2" });
    expect(afterPage(fresh, walk, newer, false).pageCursor).toBe("p2");
    expect(afterPage(fresh, walk, newer, true)).toMatchObject({ walkSince: null, coveredSince: DAY, coveredUntil: 2 * DAY });
  });

  it("extends the covered window back to a deeper since, then forward after a pause, never leaving a hole", () => {
    const covered: CursorState = { ...fresh, coveredSince: NOW - 30 * DAY, coveredUntil: NOW };
    const back = nextWalk(covered, { since: NOW - 90 * DAY, now: NOW + 1_000 });
    expect(back).toEqual({ since: NOW - 90 * DAY, until: NOW - 30 * DAY });
    const extended = afterPage(covered, back!, pageOutcome([back!.since], back!, null), false);
    expect(extended).toMatchObject({ coveredSince: NOW - 90 * DAY, coveredUntil: NOW });
    expect(nextWalk(extended, { since: NOW - 90 * DAY, now: NOW + FORWARD_AFTER_MS - 1 })).toBeNull();
    const forward = nextWalk(extended, { since: NOW - 90 * DAY, now: NOW + FORWARD_AFTER_MS });
    expect(forward).toEqual({ since: NOW, until: NOW + FORWARD_AFTER_MS });
    expect(afterPage(extended, forward!, pageOutcome([], forward!, null), true)).toMatchObject({ coveredSince: NOW - 90 * DAY, coveredUntil: NOW + FORWARD_AFTER_MS });
  });
});

describe("the depth read", () => {
  it("is the depth asked, or the venue's own where shorter", () => {
    const limits = (maxDepthDays: number | null) => ({ limits: { pageSize: 100, maxDepthDays, pagination: "cursor" as const, requestsPerSecond: 1, source: "test" } });
    expect(depthSince(NOW - 365 * DAY, limits(null), NOW)).toBe(NOW - 365 * DAY);
    expect(depthSince(NOW - 365 * DAY, limits(90), NOW)).toBe(NOW - 90 * DAY);
    expect(depthSince(NOW - 30 * DAY, limits(90), NOW)).toBe(NOW - 30 * DAY);
  });
});
