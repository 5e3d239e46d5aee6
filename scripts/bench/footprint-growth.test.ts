import { describe, expect, it } from "vitest";
import { floorGrowth } from "./footprint-growth";

describe("floorGrowth", () => {
  it("reads a saw-tooth that returns to the same floor as no growth, wherever it ends", () => {
    const sawTooth = [280, 300, 320, 340, 280, 300, 320, 340, 280, 300, 320, 345];
    expect(floorGrowth(sawTooth)).toBe(0);
  });

  it("reads rising troughs as growth", () => {
    // Troughs 200 in the first third, 230 in the last.
    expect(floorGrowth([200, 250, 210, 260, 220, 270, 230, 280, 240])).toBeCloseTo(0.15);
  });

  it("needs three samples", () => {
    expect(() => floorGrowth([1, 2])).toThrow();
  });
});
