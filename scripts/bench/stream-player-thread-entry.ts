// Runs inside the stream player's thread (stream-player-thread.ts): the player of
// freshness-streams.ts, its sockets, its HTTP answers and its 20 ms ticks, so the bench's main
// thread (the SSE clients' receipts, the pollers) never waits behind a tick.
import { parentPort, workerData } from "node:worker_threads";
import type { VenueId } from "@/lib/market/model/types";
import { startStreamPlayer, type Stamp, type StreamPlayer, type StreamPlayerOptions } from "./freshness-streams";

/** What the thread plays (plain data: the venues' frame builders are imported here, not sent). */
export type StreamPlayerThreadSetup = Pick<StreamPlayerOptions, "markets" | "rateChangesPerSecond" | "pushScale">;

export type StreamPlayerCounts = ReturnType<StreamPlayer["counts"]>;

/** What the bench asks of the player, answered by a `done` report of the same id. */
export type StreamPlayerAsk = { kind: "changing"; venues: readonly VenueId[] | "all" } | { kind: "counts" } | { kind: "close" };

export interface StreamPlayerThreadRequest {
  id: number;
  ask: StreamPlayerAsk;
}

export type StreamPlayerThreadReport =
  | { kind: "ready"; url: string }
  | { kind: "stamp"; stamp: Stamp }
  /** A request done (its counts, for `counts`). */
  | { kind: "done"; id: number; counts?: StreamPlayerCounts };

const port = parentPort!;
const setup = workerData as StreamPlayerThreadSetup;
const player = await startStreamPlayer({
  ...setup,
  // Epoch ms on the monotonic clock, as the bench's receipts are timed: performance.timeOrigin is an
  // epoch time on every thread. Whole ms, since frames carry the time as integers (Paradex's BigInt).
  now: () => Math.round(performance.timeOrigin + performance.now()),
  // One message a stamp (tens a second): the bench matches a receipt only against a stamp it holds.
  onStamp: (stamp) => port.postMessage({ kind: "stamp", stamp } satisfies StreamPlayerThreadReport),
});

port.on("message", ({ id, ask }: StreamPlayerThreadRequest) => {
  void (async () => {
    if (ask.kind === "changing") player.changing(ask.venues);
    if (ask.kind === "close") await player.close();
    port.postMessage({ kind: "done", id, counts: ask.kind === "counts" ? player.counts() : undefined } satisfies StreamPlayerThreadReport);
    if (ask.kind === "close") port.close();
  })();
});
port.postMessage({ kind: "ready", url: player.url } satisfies StreamPlayerThreadReport);
