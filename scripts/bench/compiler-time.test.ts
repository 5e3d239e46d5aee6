import { describe, expect, it } from "vitest";
import { compilerTime } from "./compiler-time";

// Lines as node 20's V8 prints them with --trace-opt --trace-deopt in a bench:market run,
// between the bench's --mark-rounds markers and its own output.
const log = [
  "[completed compiling 0x1dde8fe17fd9 <JSFunction parseSource (sfi = 0x18a2aad3cb69)> (target TURBOFAN) OSR - took 0.028, 45.641, 0.087 ms]",
  "  47 of 47 venues answered; 469295 opportunities",
  "ROUND 0",
  "[marking 0x0d34b4939ae1 <JSFunction rankingSlices (sfi = 0xb8136a86e69)> for optimization to TURBOFAN, ConcurrencyMode::kConcurrent, reason: hot and stable]",
  "[completed compiling 0x0d34b4939ae1 <JSFunction rankingSlices (sfi = 0xb8136a86e69)> (target TURBOFAN) - took 0.008, 81.660, 0.326 ms]",
  "[completed optimizing 0x0d34b4939ae1 <JSFunction rankingSlices (sfi = 0xb8136a86e69)> (target TURBOFAN)]",
  "[completed compiling 0x0d34b4939ae1 <JSFunction rankingSlices (sfi = 0xb8136a86e69)> (target TURBOFAN) OSR - took 0.005, 33.946, 0.147 ms]",
  "[bailout (kind: deopt-eager, reason: wrong map): begin. deoptimizing 0x0d34b4939ae1 <JSFunction rankingSlices (sfi = 0xb8136a86e69)>, 0x002fa54f6d99 <Code TURBOFAN>, opt id 977, bytecode offset 4730]",
  "ROUND 1",
  "[completed compiling 0x37c53a586bc9 <JSFunction get (sfi = 0x10af1a9a8689)> (target TURBOFAN) - took 0.013, 0.493, 0.067 ms]",
  "[completed compiling 0x3291f2e74a99 <JSFunction (sfi = 0x3160c8a6bd39)> (target TURBOFAN) - took 0.007, 8.320, 0.092 ms]",
  "[completed compiling 0x1deeab62ab21 <JSFunction (sfi = 0x61ac5fb6b11)> (target TURBOFAN) - took 0.003, 8.067, 0.030 ms]",
  "ROUND 2",
  "ROUND END",
  "[completed compiling 0x37c53a586bc9 <JSFunction get (sfi = 0x10af1a9a8689)> (target TURBOFAN) - took 0.013, 0.493, 0.067 ms]",
].join("\n");

describe("compilerTime", () => {
  it("sums each marked round's compilations and their three phases, and counts its deoptimisations", () => {
    const { rounds } = compilerTime(log);
    // The compilations before the first marker (the cold round's) and after the last round are no measured round's.
    expect(rounds.map((r) => [r.round, r.compilations, r.deoptimisations])).toEqual([
      [0, 2, 1],
      [1, 3, 0],
      [2, 0, 0],
    ]);
    expect(rounds[0]!.compilerMs).toBeCloseTo(0.008 + 81.66 + 0.326 + 0.005 + 33.946 + 0.147, 9);
    expect(rounds[1]!.compilerMs).toBeCloseTo(0.573 + 8.419 + 8.1, 9);
  });

  it("names the functions compiled from a round on, anonymous ones and loop entries apart, most time first", () => {
    expect(compilerTime(log, 1).byFunction).toEqual([
      { name: "(anonymous)", compilations: 2, compilerMs: expect.closeTo(16.519, 9) },
      { name: "get", compilations: 1, compilerMs: expect.closeTo(0.573, 9) },
    ]);
    expect(compilerTime(log, 0).byFunction.map((f) => f.name)).toEqual(["rankingSlices", "rankingSlices OSR", "(anonymous)", "get"]);
  });
});
