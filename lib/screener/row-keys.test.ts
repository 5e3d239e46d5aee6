import { describe, expect, it } from "vitest";
import { rowKeyAction } from "./row-keys";

describe("rowKeyAction", () => {
  it("moves down and up with the arrows and with j and k, stopping at the ends", () => {
    expect(rowKeyAction("ArrowDown", 0, 3)).toEqual({ kind: "focus", index: 1 });
    expect(rowKeyAction("j", 1, 3)).toEqual({ kind: "focus", index: 2 });
    expect(rowKeyAction("j", 2, 3)).toEqual({ kind: "focus", index: 2 });
    expect(rowKeyAction("ArrowUp", 2, 3)).toEqual({ kind: "focus", index: 1 });
    expect(rowKeyAction("k", 0, 3)).toEqual({ kind: "focus", index: 0 });
  });

  it("jumps to the first and last rows", () => {
    expect(rowKeyAction("Home", 5, 9)).toEqual({ kind: "focus", index: 0 });
    expect(rowKeyAction("End", 0, 9)).toEqual({ kind: "focus", index: 8 });
  });

  it("opens the row with Enter and shows its details with Space; other keys do nothing", () => {
    expect(rowKeyAction("Enter", 0, 1)).toEqual({ kind: "open" });
    expect(rowKeyAction(" ", 0, 1)).toEqual({ kind: "toggle" });
    expect(rowKeyAction("x", 0, 1)).toBeNull();
    expect(rowKeyAction("j", 0, 0)).toBeNull();
  });
});
