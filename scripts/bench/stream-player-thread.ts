// bench:freshness's stream player on a worker thread of its own: the player (freshness-streams.ts)
// sends tens of thousands of frames a second, and on the bench's main thread its ticks would delay
// the SSE clients' receipts and the pollers (that thread's event-loop delay p99 0.7-1 s), so every
// latency figure would carry the bench's own delay. Here the main thread only hears the stamps (one
// message each) and asks for counts.
import { Worker } from "node:worker_threads";
import { threadExecArgv } from "@/lib/market/ingest/thread-exec-argv";
import type { VenueId } from "@/lib/market/model/types";
import type { StreamPlayer, StreamPlayerOptions } from "./freshness-streams";
import type { StreamPlayerAsk, StreamPlayerCounts, StreamPlayerThreadReport, StreamPlayerThreadRequest, StreamPlayerThreadSetup } from "./stream-player-thread-entry";

/** A StreamPlayer whose settings and counts cross to its thread, so they answer once the thread has. */
export interface StreamPlayerThread extends Omit<StreamPlayer, "changing" | "counts"> {
  /** Resolves once the thread applies it: every stamp sent after that follows the new setting. */
  changing(venues: readonly VenueId[] | "all"): Promise<void>;
  counts(): Promise<StreamPlayerCounts>;
}

/**
 * The player's options but its clock, which stays in the thread (a function does not cross): epoch
 * ms on the monotonic clock, comparable with `performance.timeOrigin + performance.now()` here.
 * `onStamp` is called on this thread, as each stamp's message arrives.
 */
export type StreamPlayerThreadOptions = Omit<StreamPlayerOptions, "now">;

interface Pending {
  resolve(report: Extract<StreamPlayerThreadReport, { kind: "done" }>): void;
  reject(error: Error): void;
}

export async function startStreamPlayerThread(options: StreamPlayerThreadOptions): Promise<StreamPlayerThread> {
  const setup: StreamPlayerThreadSetup = { markets: options.markets, rateChangesPerSecond: options.rateChangesPerSecond, pushScale: options.pushScale };
  const worker = new Worker(new URL("./stream-player-thread-boot.mjs", import.meta.url), { workerData: setup, execArgv: threadExecArgv(process.execArgv) });
  const pending = new Map<number, Pending>();
  let nextId = 0;
  /** Why the thread is gone, once it is: every request after that fails with it. */
  let gone: Error | undefined;
  let closing = false;

  const url = await new Promise<string>((resolve, reject) => {
    const fail = (error: Error) => {
      gone ??= error;
      reject(gone);
      for (const request of pending.values()) request.reject(gone);
      pending.clear();
    };
    worker.on("message", (report: StreamPlayerThreadReport) => {
      if (report.kind === "ready") return resolve(report.url);
      if (report.kind === "stamp") return options.onStamp(report.stamp);
      pending.get(report.id)?.resolve(report);
      pending.delete(report.id);
    });
    worker.on("error", (error) => fail(new Error(`the stream player thread failed: ${error.message}`, { cause: error })));
    worker.on("exit", (code) => fail(new Error(closing ? "the stream player is closed" : `the stream player thread exited (code ${code})`)));
  });

  const request = (ask: StreamPlayerAsk) =>
    new Promise<Extract<StreamPlayerThreadReport, { kind: "done" }>>((resolve, reject) => {
      if (gone) return reject(gone);
      const id = nextId++;
      pending.set(id, { resolve, reject });
      worker.postMessage({ id, ask } satisfies StreamPlayerThreadRequest);
    });

  return {
    url,
    async changing(venues) {
      await request({ kind: "changing", venues });
    },
    async counts() {
      return (await request({ kind: "counts" })).counts ?? [];
    },
    async close() {
      if (closing) return;
      closing = true;
      // The player closes its sockets and servers first; the thread ends either way.
      await request({ kind: "close" }).catch(() => undefined);
      await worker.terminate();
    },
  };
}
