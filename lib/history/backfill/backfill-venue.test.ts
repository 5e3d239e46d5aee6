import { describe, expect, it } from "vitest";
import { oncePerSettlement, pageSettlements } from "./backfill-venue";

const H = 3_600_000;
const at = (time: number, rate = 0.0001) => ({ time, rate, intervalHours: null });

describe("the settlements a page stores", () => {
  it("keeps one of two stamps of the same settlement, the older, across pages answered in any order", () => {
    // Two pages, newest first, the boundary settlement in both with a jittered stamp.
    const newer = [at(4 * H), at(3 * H + 5, 0.0003)];
    const older = [at(3 * H, 0.0002), at(2 * H), at(H)];
    expect(oncePerSettlement([...newer, ...older]).map((s) => [s.time, s.rate])).toEqual([
      [H, 0.0001],
      [2 * H, 0.0001],
      [3 * H, 0.0002],
      [4 * H, 0.0001],
    ]);
  });

  it("keeps a page's settlements inside the walk's window, ends included", () => {
    const page = [at(5 * H), at(4 * H), at(3 * H), at(2 * H), at(H)];
    expect(pageSettlements(page, { since: 2 * H, until: 4 * H }).map((s) => s.time)).toEqual([2 * H, 3 * H, 4 * H]);
  });
});
