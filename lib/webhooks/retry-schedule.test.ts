import { describe, expect, it } from "vitest";
import { JITTER, nextAttemptAt, RETRY_DELAYS_MS, RETRY_WINDOW_MS } from "./retry-schedule";

const created = new Date("2026-01-01T00:00:00Z");

describe("nextAttemptAt", () => {
  it("follows the schedule without jitter at random 0.5", () => {
    expect(nextAttemptAt(1, created, created, 0.5)?.getTime()).toBe(created.getTime() + 5_000);
    expect(nextAttemptAt(2, created, new Date(created.getTime() + 5_000), 0.5)?.getTime()).toBe(created.getTime() + 65_000);
  });

  it("moves each delay by at most 10 % either way", () => {
    for (const random of [0, 0.25, 0.999]) {
      const delay = nextAttemptAt(4, created, created, random)!.getTime() - created.getTime();
      expect(delay).toBeGreaterThanOrEqual(RETRY_DELAYS_MS[3] * (1 - JITTER));
      expect(delay).toBeLessThanOrEqual(RETRY_DELAYS_MS[3] * (1 + JITTER));
    }
  });

  it("gives fourteen attempts within 3 days, then stops", () => {
    let at = created;
    let attempts = 1;
    for (;;) {
      const next = nextAttemptAt(attempts, created, at, 0.999);
      if (!next) break;
      at = next;
      attempts += 1;
    }
    expect(attempts).toBe(14);
    expect(RETRY_WINDOW_MS).toBe(3 * 86_400_000);
    expect(at.getTime() - created.getTime()).toBeLessThanOrEqual(RETRY_WINDOW_MS);
    expect(at.getTime() - created.getTime()).toBeGreaterThan(70 * 3_600_000);
  });

  it("never schedules past the window, and gives up once the window has passed", () => {
    const late = new Date(created.getTime() + RETRY_WINDOW_MS - 60_000);
    expect(nextAttemptAt(13, created, late, 0.5)?.getTime()).toBe(created.getTime() + RETRY_WINDOW_MS);
    expect(nextAttemptAt(3, created, new Date(created.getTime() + RETRY_WINDOW_MS), 0.5)).toBeNull();
  });
});
