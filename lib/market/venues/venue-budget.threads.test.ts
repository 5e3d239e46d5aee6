import { Worker } from "node:worker_threads";
import { describe, expect, it } from "vitest";
import { SharedBuckets } from "./venue-budget";

// Each thread loads the budget from the sources through tsx, as the venue thread does, and draws
// from the bucket in the buffer it is handed for `ms`, flat out; it answers the times it was let through.
const THREAD = `
const { parentPort, workerData } = require("node:worker_threads");
(async () => {
  const { register } = await import("tsx/esm/api");
  register();
  const { SharedBuckets } = await import(workerData.module);
  const buckets = new SharedBuckets(workerData.buffer, [workerData.shape]);
  const times = [];
  // Both threads start together, however long each took to load.
  const gate = new Int32Array(workerData.gate);
  Atomics.add(gate, 0, 1);
  Atomics.notify(gate, 0);
  for (let seen = Atomics.load(gate, 0); seen < 2; seen = Atomics.load(gate, 0)) Atomics.wait(gate, 0, seen, 50);
  const startAt = Date.now();
  times.push(startAt);
  while (Date.now() < startAt + workerData.ms) {
    await buckets.take(0, workerData.priority);
    times.push(Date.now());
  }
  parentPort.postMessage(times);
})();
`;

function drawing(buffer: SharedArrayBuffer, gate: SharedArrayBuffer, shape: object, priority: string, ms: number): Promise<number[]> {
  const budgetModule = new URL("./venue-budget.ts", import.meta.url).href;
  const worker = new Worker(THREAD, { eval: true, workerData: { buffer, gate, shape, priority, ms, module: budgetModule } });
  return new Promise((resolve, reject) => {
    worker.once("message", (times: number[]) => {
      void worker.terminate();
      resolve(times);
    });
    worker.once("error", reject);
  });
}

describe("a venue's budget shared by two threads", () => {
  it("lets both threads together no faster than the bucket's rate", async () => {
    const shape = { ratePerSecond: 40, burst: 4, reserve: 2 };
    const buffer = SharedBuckets.buffer(1);
    const gate = new SharedArrayBuffer(4);
    const ms = 1_500;
    const [[liveStart, ...live], [backfillStart, ...backfill]] = await Promise.all([
      drawing(buffer, gate, shape, "live", ms),
      drawing(buffer, gate, shape, "backfill", ms),
    ]);
    const startAt = Math.min(liveStart!, backfillStart!);
    const all = [...live, ...backfill].sort((a, b) => a - b);
    // Every draw of either thread counted once in the one bucket.
    expect(new SharedBuckets(buffer, [shape]).draws(0)).toBe(all.length);
    const span = (all.at(-1)! - startAt) / 1_000;
    // Within the bucket's bound (a few ms of timer slack), and each thread got a share.
    expect(all.length).toBeLessThanOrEqual(shape.burst + Math.ceil((span + 0.02) * shape.ratePerSecond));
    expect(all.length).toBeGreaterThanOrEqual(Math.floor((ms / 1_000) * shape.ratePerSecond * 0.8));
    expect(live.length).toBeGreaterThan(0);
    // Drawing flat out beside live requests, the backfill only gets what the live thread leaves above the reserve.
    expect(live.length).toBeGreaterThan(backfill.length);
  });
});
