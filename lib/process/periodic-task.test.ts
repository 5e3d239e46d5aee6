import { afterEach, describe, expect, it, onTestFinished, vi } from "vitest";
import { captureLogs } from "@/tests/support/capture-logs";
import { startPeriodicTask } from "./periodic-task";

afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

describe("startPeriodicTask", () => {
  it("runs at once and then every interval until stopped, and logs a failure without ending the schedule", async () => {
    vi.useFakeTimers();
    const logs = captureLogs();
    onTestFinished(logs.restore);
    let runs = 0;
    const task = startPeriodicTask("sweeping", 1_000, async () => {
      runs++;
      if (runs === 2) throw new Error("database away");
    });
    expect(runs).toBe(1);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(runs).toBe(2);
    expect(logs.records()).toEqual([expect.objectContaining({ level: "error", component: "tasks", msg: "sweeping failed", err: expect.objectContaining({ message: "database away" }) })]);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(runs).toBe(3);
    task.run();
    expect(runs).toBe(4);
    task.stop();
    await vi.advanceTimersByTimeAsync(5_000);
    expect(runs).toBe(4);
  });

  it("settles its first run when that run ends, failed or not", async () => {
    const logs = captureLogs();
    onTestFinished(logs.restore);
    let finish!: () => void;
    const task = startPeriodicTask("sweeping", 60_000, () => new Promise<void>((resolve) => (finish = resolve)));
    onTestFinished(task.stop);
    let settled = false;
    void task.firstRun.then(() => (settled = true));
    await Promise.resolve();
    expect(settled).toBe(false);
    finish();
    await task.firstRun;
    expect(settled).toBe(true);
    const failing = startPeriodicTask("failing", 60_000, () => Promise.reject(new Error("database away")));
    onTestFinished(failing.stop);
    await expect(failing.firstRun).resolves.toBeUndefined();
    expect(logs.records()).toEqual([expect.objectContaining({ msg: "failing failed" })]);
  });

  it("waits for the first interval when asked not to run at once", async () => {
    vi.useFakeTimers();
    let runs = 0;
    const task = startPeriodicTask("sweeping", 1_000, async () => void runs++, { runNow: false });
    expect(runs).toBe(0);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(runs).toBe(1);
    task.stop();
  });
});
