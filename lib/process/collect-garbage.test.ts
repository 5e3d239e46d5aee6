import { describe, expect, it, vi } from "vitest";
import { collectGarbage } from "./collect-garbage";

describe("collectGarbage", () => {
  it("collects when node exposes gc, and does nothing otherwise", () => {
    const gc = vi.fn();
    expect(collectGarbage({ gc })).toBe(true);
    expect(gc).toHaveBeenCalledOnce();
    expect(collectGarbage({})).toBe(false);
  });
});
