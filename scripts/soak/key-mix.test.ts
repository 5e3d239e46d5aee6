import { describe, expect, it } from "vitest";
import { parseMix, tiersFor } from "./key-mix";

const tally = (tiers: string[]) => Object.fromEntries(["free", "pro", "desk"].map((t) => [t, tiers.filter((x) => x === t).length]));

describe("the soak's key mix", () => {
  it("turns weights into whole counts that add up to the keys asked for", () => {
    expect(tally(tiersFor(1000, parseMix("90:9:1")))).toEqual({ free: 900, pro: 90, desk: 10 });
    expect(tally(tiersFor(1000, parseMix("0:2:1")))).toEqual({ free: 0, pro: 667, desk: 333 });
    expect(tiersFor(7, parseMix("1:1:1"))).toHaveLength(7);
  });

  it("refuses a mix it cannot read", () => {
    for (const bad of ["90:10", "a:b:c", "0:0:0", "-1:1:1"]) expect(() => parseMix(bad), bad).toThrow(/--mix/);
  });
});
