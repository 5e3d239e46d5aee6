import { describe, expect, it } from "vitest";
import { threadExecArgv } from "./stream-thread";

describe("threadExecArgv", () => {
  it("drops the process's preloads, in either form, and keeps every other flag", () => {
    expect(
      threadExecArgv(["--cpu-prof", "--cpu-prof-dir=/p", "--import", "tsx", "--import=file:///bench/venues.ts", "-r", "x.cjs", "--max-semi-space-size=4", "--expose-gc", "--loader=l.mjs"]),
    ).toEqual(["--cpu-prof", "--cpu-prof-dir=/p", "--max-semi-space-size=4", "--expose-gc"]);
    expect(threadExecArgv([])).toEqual([]);
  });
});
