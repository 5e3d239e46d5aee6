import { describe, expect, it } from "vitest";
import { claimAfterJobEnds, failureBackoffMs } from "./job-runner";

describe("failureBackoffMs", () => {
  it("doubles from one second per claim and stops at an hour", () => {
    expect([1, 2, 3, 4].map(failureBackoffMs)).toEqual([1_000, 2_000, 4_000, 8_000]);
    expect(failureBackoffMs(13)).toBe(3_600_000);
    expect(failureBackoffMs(100)).toBe(3_600_000);
  });
});

describe("claimAfterJobEnds", () => {
  it("claims again once a quarter of the slots are free", () => {
    expect(claimAfterJobEnds(15, 64)).toBe(false);
    expect(claimAfterJobEnds(16, 64)).toBe(true);
    expect(claimAfterJobEnds(64, 64)).toBe(true);
  });

  it("claims at once with up to four slots, and always when every slot is free", () => {
    for (const concurrency of [1, 2, 3, 4]) expect(claimAfterJobEnds(1, concurrency)).toBe(true);
    expect(claimAfterJobEnds(1, 5)).toBe(true);
    expect(claimAfterJobEnds(0, 1)).toBe(false);
  });
});
