import { EventEmitter } from "node:events";
import { afterEach, describe, expect, it, onTestFinished, vi } from "vitest";
import { DataDirLockedError } from "@/lib/db/data-dir-lock";
import { captureLogs } from "@/tests/support/capture-logs";
import { onShutdown, runService } from "./run-service";

/** A process that records its exit codes instead of exiting. */
function fakeProcess() {
  const emitter = new EventEmitter();
  const exits: number[] = [];
  return { emitter, exits, target: { on: emitter.on.bind(emitter), exit: (code: number) => void exits.push(code) } };
}

afterEach(() => vi.restoreAllMocks());

describe("onShutdown", () => {
  it("stops once for the first signal, then exits 0, whatever arrives while it stops", async () => {
    const { emitter, exits, target } = fakeProcess();
    let finish!: () => void;
    const stop = vi.fn((_signal: NodeJS.Signals) => new Promise<void>((resolve) => (finish = resolve)));
    onShutdown(stop, target);
    emitter.emit("SIGTERM");
    emitter.emit("SIGINT");
    emitter.emit("SIGTERM");
    expect(stop).toHaveBeenCalledTimes(1);
    expect(stop).toHaveBeenCalledWith("SIGTERM");
    expect(exits).toEqual([]); // not before stop has finished
    finish();
    await vi.waitFor(() => expect(exits).toEqual([0]));
    emitter.emit("SIGINT");
    await new Promise((resolve) => setImmediate(resolve));
    expect(stop).toHaveBeenCalledTimes(1);
    expect(exits).toEqual([0]);
  });

  it("listens to SIGINT too", async () => {
    const { emitter, exits, target } = fakeProcess();
    const stop = vi.fn(async () => {});
    onShutdown(stop, target);
    emitter.emit("SIGINT");
    await vi.waitFor(() => expect(exits).toEqual([0]));
    expect(stop).toHaveBeenCalledWith("SIGINT");
  });
});

describe("runService", () => {
  it("leaves a service that started running", async () => {
    const { exits, target } = fakeProcess();
    await runService(async () => {}, target);
    expect(exits).toEqual([]);
  });

  it("logs a locked data directory as one line and exits 1", async () => {
    const logs = captureLogs();
    onTestFinished(logs.restore);
    const { exits, target } = fakeProcess();
    const locked = new DataDirLockedError("/tmp/data", 42, "node server.ts");
    await runService(() => Promise.reject(locked), target);
    expect(logs.records()).toEqual([expect.objectContaining({ level: "fatal", msg: `Cannot start: ${locked.message}` })]);
    expect(logs.records()[0]).not.toHaveProperty("err");
    expect(exits).toEqual([1]);
  });

  it("logs any other failure with its stack and exits 1", async () => {
    const logs = captureLogs();
    onTestFinished(logs.restore);
    const { exits, target } = fakeProcess();
    const failure = new Error("no database");
    await runService(() => Promise.reject(failure), target);
    expect(logs.records()).toEqual([
      expect.objectContaining({ level: "fatal", msg: "Cannot start: no database", err: expect.objectContaining({ message: "no database", stack: failure.stack }) }),
    ]);
    expect(exits).toEqual([1]);
  });
});
