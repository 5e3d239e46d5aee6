import { describe, expect, it } from "vitest";
import { atCap } from "./at-cap";

describe("atCap", () => {
  it("is true when the current or the predicted rate reaches the cap or the floor", () => {
    expect(atCap([0.02, null], 0.02, -0.02)).toBe(true);
    expect(atCap([0.0001, 0.02], 0.02, -0.02)).toBe(true);
    expect(atCap([-0.02], 0.02, -0.02)).toBe(true);
    // Beyond a bound (a venue clamping after the fact, or a bound lowered since) is at it too.
    expect(atCap([0.03], 0.02, -0.02)).toBe(true);
    // The venues' 8-decimal quoting: 0.0199999999 is the cap.
    expect(atCap([0.0199999999], 0.02, null)).toBe(true);
  });

  it("is false inside the bounds, without bounds, or without rates", () => {
    expect(atCap([0.0199, -0.0199], 0.02, -0.02)).toBe(false);
    expect(atCap([0.5], null, null)).toBe(false);
    expect(atCap([null, null], 0.02, -0.02)).toBe(false);
    expect(atCap([-0.5], 0.02, null)).toBe(false);
  });
});
