import { describe, expect, it } from "vitest";
import { afterPage, FORWARD_AFTER_MS, nextWalk, type CursorState } from "./backfill-cursor";
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
    const first = afterPage(fresh, walk, { received: 500, inWindow: 500, next: "t1" });
    expect(first).toMatchObject({ walkSince: walk.since, walkUntil: walk.until, pageCursor: "t1", coveredSince: null });
    // Later, with a clock that moved on, the same window continues.
    expect(nextWalk(first, { since: NOW - 10 * DAY, now: NOW + 5 * DAY })).toEqual(walk);
    const second = afterPage(first, walk, { received: 20, inWindow: 20, next: null });
    expect(second).toEqual({ coveredSince: walk.since, coveredUntil: walk.until, walkSince: null, walkUntil: null, pageCursor: null });
    expect(nextWalk(second, { since: NOW - 10 * DAY, now: NOW + 1_000 })).toBeNull();
  });

  it("ends a walk on an empty page, a page outside the window, or the token it was given", () => {
    const walk = { since: 0, until: DAY };
    const walking = { ...fresh, walkSince: 0, walkUntil: DAY, pageCursor: "p2" };
    expect(afterPage(walking, walk, { received: 0, inWindow: 0, next: "p3" }).walkSince).toBeNull();
    expect(afterPage(walking, walk, { received: 100, inWindow: 0, next: "p3" }).walkSince).toBeNull();
    expect(afterPage(walking, walk, { received: 100, inWindow: 100, next: "p2" }).walkSince).toBeNull();
    expect(afterPage(walking, walk, { received: 100, inWindow: 1, next: "p3" }).pageCursor).toBe("p3");
  });

  it("extends the covered window back to a deeper since, then forward after a pause, never leaving a hole", () => {
    const covered: CursorState = { ...fresh, coveredSince: NOW - 30 * DAY, coveredUntil: NOW };
    const back = nextWalk(covered, { since: NOW - 90 * DAY, now: NOW + 1_000 });
    expect(back).toEqual({ since: NOW - 90 * DAY, until: NOW - 30 * DAY });
    const extended = afterPage(covered, back!, { received: 3, inWindow: 3, next: null });
    expect(extended).toMatchObject({ coveredSince: NOW - 90 * DAY, coveredUntil: NOW });
    expect(nextWalk(extended, { since: NOW - 90 * DAY, now: NOW + FORWARD_AFTER_MS - 1 })).toBeNull();
    const forward = nextWalk(extended, { since: NOW - 90 * DAY, now: NOW + FORWARD_AFTER_MS });
    expect(forward).toEqual({ since: NOW, until: NOW + FORWARD_AFTER_MS });
    expect(afterPage(extended, forward!, { received: 0, inWindow: 0, next: null })).toMatchObject({ coveredSince: NOW - 90 * DAY, coveredUntil: NOW + FORWARD_AFTER_MS });
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
