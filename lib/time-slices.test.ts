import { afterEach, describe, expect, it } from "vitest";
import { MIN_RUN_BETWEEN_YIELDS_MS, runInSlices, runWhole, yieldSlicesTo, type Sliced } from "./time-slices";

/** Work of `steps` steps, each spinning `stepMs` of real time, that counts the steps taken. */
function spinning(steps: number, stepMs: number, done: { steps: number }): Sliced<number> {
  return (function* () {
    let sum = 0;
    for (let i = 0; i < steps; i++) {
      const until = performance.now() + stepMs;
      while (performance.now() < until) sum += 0;
      sum += i;
      done.steps += 1;
      yield;
    }
    return sum;
  })();
}

let stop: (() => void) | undefined;
afterEach(() => stop?.());

describe("runInSlices", () => {
  it("waits at a pause for the urgent work in flight once it has run its least, and finishes as runWhole does after it", async () => {
    let release!: () => void;
    let urgent: Promise<void> | undefined = new Promise<void>((resolve) => (release = resolve));
    stop = yieldSlicesTo(() => urgent);
    const done = { steps: 0 };
    const stepMs = MIN_RUN_BETWEEN_YIELDS_MS / 4 + 1;
    const running = runInSlices(spinning(20, stepMs, done), 0);
    let finished = false;
    void running.then(() => (finished = true));
    for (let i = 0; i < 20; i++) await new Promise((resolve) => setImmediate(resolve));
    // Held after its least run (4 steps of a quarter of it and more), well before its 20 steps.
    expect(finished).toBe(false);
    expect(done.steps).toBeGreaterThanOrEqual(4);
    expect(done.steps).toBeLessThan(20);
    urgent = undefined;
    release();
    expect(await running).toBe(runWhole(spinning(20, 0, { steps: 0 })));
    expect(done.steps).toBe(20);
  });

  it("runs on without pausing for anything when nothing urgent is in flight, and a removed registration is no longer waited for", async () => {
    const never = new Promise<void>(() => undefined);
    const remove = yieldSlicesTo(() => never);
    remove();
    const done = { steps: 0 };
    expect(await runInSlices(spinning(10, MIN_RUN_BETWEEN_YIELDS_MS / 4 + 1, done), 0)).toBe(45);
    stop = yieldSlicesTo(() => undefined);
    expect(await runInSlices(spinning(10, MIN_RUN_BETWEEN_YIELDS_MS / 4 + 1, { steps: 0 }), 0)).toBe(45);
  });
});
