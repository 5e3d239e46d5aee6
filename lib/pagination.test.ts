import { describe, expect, it } from "vitest";
import { pageFrom, pageOf } from "./pagination";

describe("pageOf", () => {
  const all = ["a", "b", "c", "d", "e"];

  it("cuts the page at offset and limit, with the total and whether more follow", () => {
    expect(pageOf(all, { limit: 2, offset: 0 })).toEqual({ items: ["a", "b"], total: 5, limit: 2, offset: 0, has_more: true });
    expect(pageOf(all, { limit: 2, offset: 3 })).toEqual({ items: ["d", "e"], total: 5, limit: 2, offset: 3, has_more: false });
  });

  it("answers an empty page past the end, with nothing more", () => {
    expect(pageOf(all, { limit: 2, offset: 9 })).toEqual({ items: [], total: 5, limit: 2, offset: 9, has_more: false });
  });
});

describe("pageFrom", () => {
  it("tells a page the store cut short of its total", () => {
    expect(pageFrom(["x"], 3, { limit: 1, offset: 1 })).toEqual({ items: ["x"], total: 3, limit: 1, offset: 1, has_more: true });
    expect(pageFrom(["x"], 3, { limit: 1, offset: 2 }).has_more).toBe(false);
  });
});
