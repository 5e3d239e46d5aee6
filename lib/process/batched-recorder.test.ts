import { describe, expect, it } from "vitest";
import { BatchedRecorder } from "./batched-recorder";

/** Records numbers; a write of a non-empty batch takes 20 ms, an empty one returns at once. */
class SlowRecorder extends BatchedRecorder {
  pending: number[] = [];
  stored: number[] = [];
  constructor() {
    super("recording numbers");
  }
  protected async write(): Promise<void> {
    const batch = this.pending;
    this.pending = [];
    if (batch.length === 0) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
    this.stored.push(...batch);
  }
}

describe("BatchedRecorder.flush", () => {
  it("called during the timer's write, returns only once that write has stored what it took", async () => {
    const recorder = new SlowRecorder();
    recorder.pending.push(1, 2);
    const timerWrite = recorder.flush();
    await recorder.flush(); // nothing is pending any more: it must still wait
    expect(recorder.stored).toEqual([1, 2]);
    await timerWrite;
  });

  it("still writes after a failed write", async () => {
    let calls = 0;
    class Failing extends BatchedRecorder {
      constructor() {
        super("failing");
      }
      protected async write() {
        if (++calls === 1) throw new Error("database down");
      }
    }
    const recorder = new Failing();
    await expect(recorder.flush()).rejects.toThrow("database down");
    await recorder.flush();
    expect(calls).toBe(2);
  });
});
