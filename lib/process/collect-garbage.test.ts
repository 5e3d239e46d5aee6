import { describe, expect, it, vi } from "vitest";
import { collectGarbage } from "./collect-garbage";

describe("collectGarbage", () => {
  it("collects when node exposes gc, and does nothing otherwise", () => {
    const gc = vi.fn();
    expect(collectGarbage({ target: { gc } })).toBe(true);
    expect(gc).toHaveBeenCalledOnce();
    expect(collectGarbage({ target: {} })).toBe(false);
  });

  it("collects as many times in a row as asked", () => {
    const gc = vi.fn();
    collectGarbage({ target: { gc }, passes: 2 });
    expect(gc).toHaveBeenCalledTimes(2);
  });
});
