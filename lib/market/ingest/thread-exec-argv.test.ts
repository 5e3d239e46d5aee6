import { describe, expect, it } from "vitest";
import { preloadsOf, threadExecArgv } from "./thread-exec-argv";

describe("threadExecArgv", () => {
  it("inherits the process's options unless they preload; then keeps the profiler's flags alone", () => {
    expect(threadExecArgv(["--expose-gc", "--max-semi-space-size=4"])).toBeUndefined();
    expect(threadExecArgv(["--cpu-prof", "--cpu-prof-dir=/p", "--import", "tsx", "--import=file:///bench/venues.ts", "--max-semi-space-size=4"])).toEqual(["--cpu-prof", "--cpu-prof-dir=/p"]);
    expect(threadExecArgv(["--max-semi-space-size=64", "--import", "tsx"])).toEqual([]);
    expect(threadExecArgv(["-r", "x.cjs"])).toEqual([]);
  });
});

describe("preloadsOf", () => {
  it("lists the --import preloads in order, in either spelling, without tsx", () => {
    expect(preloadsOf(["--cpu-prof", "--import", "tsx", "--import=file:///bench/venues.ts", "--import", "file:///bench/other.ts"])).toEqual(["file:///bench/venues.ts", "file:///bench/other.ts"]);
    expect(preloadsOf(["--import=tsx/esm", "-r", "x.cjs", "--expose-gc"])).toEqual([]);
    expect(preloadsOf([])).toEqual([]);
  });
});
