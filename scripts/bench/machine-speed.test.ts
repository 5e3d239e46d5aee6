import { describe, expect, it } from "vitest";
import { machineSpeedInChild, machineSpeedMs, referenceWorkload } from "./machine-speed";

describe("machineSpeedMs", () => {
  it("times the same work every run: one answer, a positive time", () => {
    const answer = referenceWorkload();
    expect(answer).toBeGreaterThan(0);
    expect(referenceWorkload()).toBe(answer);
    const ms = machineSpeedMs(3);
    expect(ms).toBeGreaterThan(0);
    expect(Number.isFinite(ms)).toBe(true);
  });

  it("times it in a process of its own", () => {
    expect(machineSpeedInChild()).toBeGreaterThan(0);
  }, 30_000);
});
