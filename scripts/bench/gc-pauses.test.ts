import { describe, expect, it } from "vitest";
import { gcPauses } from "./gc-pauses";

/** Allocates short-lived objects until the young generation has been collected a few times. */
function churn(): number {
  let kept = 0;
  for (let i = 0; i < 2_000_000; i++) {
    const o = { i, s: `x${i}`, a: [i, i + 1] };
    kept += o.a.length;
  }
  return kept;
}

describe("gcPauses", () => {
  it("counts the scavenges an allocating stretch causes, and none outside the window asked", async () => {
    const gc = gcPauses();
    const from = performance.now();
    expect(churn()).toBe(4_000_000);
    const to = performance.now();
    await new Promise((resolve) => setImmediate(resolve));
    const during = gc.between(from, to);
    expect(during.minor.count).toBeGreaterThan(0);
    expect(during.minor.ms).toBeGreaterThan(0);
    expect(gc.between(to + 60_000, to + 120_000)).toEqual({ minor: { count: 0, ms: 0 }, major: { count: 0, ms: 0 } });
    gc.stop();
  });
});
