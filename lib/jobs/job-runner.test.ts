import { describe, expect, it } from "vitest";
import { failureBackoffMs } from "./job-runner";

describe("failureBackoffMs", () => {
  it("doubles from one second per claim and stops at an hour", () => {
    expect([1, 2, 3, 4].map(failureBackoffMs)).toEqual([1_000, 2_000, 4_000, 8_000]);
    expect(failureBackoffMs(13)).toBe(3_600_000);
    expect(failureBackoffMs(100)).toBe(3_600_000);
  });
});
