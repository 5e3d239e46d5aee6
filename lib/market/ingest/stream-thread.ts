import { Worker } from "node:worker_threads";
import { logger } from "@/lib/observability/logger";
import { metrics } from "@/lib/observability/metrics";
import type { StreamUpdate } from "../venues/streams/stream-protocol";
import { venueBudgets } from "../venues/venue-budget";
import { threadExecArgv } from "./thread-exec-argv";
import type { LiveStream, LiveStreamOptions, LiveStreamState, OpenLiveStream } from "./live-stream";
import type { StreamFlush, StreamThreadReport, StreamThreadRequest, StreamThreadSetup } from "./stream-thread-entry";

const log = logger("live-feeds");

/**
 * Where the thread compiled by scripts/server-bundle.mjs is, from this file: set in that bundle only
 * (an esbuild `define`), so a compiled server starts a compiled thread.
 */
declare const STREAM_THREAD_BUNDLE: string | undefined;

/** The thread's entry: compiled in the bundle; run from the sources, the TypeScript through tsx (stream-thread-boot.mjs). */
function threadEntry(): URL {
  return new URL(typeof STREAM_THREAD_BUNDLE === "string" ? STREAM_THREAD_BUNDLE : "./stream-thread-boot.mjs", import.meta.url);
}


export interface StreamThreadOptions extends Omit<StreamThreadSetup, "budgets" | "flushMs"> {
  /** How often the thread hands over its gathered news (default 50 ms: short beside a micro-batch's period). */
  flushMs?: number;
  /** The venue budgets' buffer (unset: this process's). */
  budgets?: SharedArrayBuffer;
  /** The first wait before a dead thread is started again, doubled at each death in a row up to a minute (default 5 s). */
  restartAfterMs?: number;
}

const MAX_RESTART_MS = 60_000;

/**
 * One worker thread hosting every venue's stream (StreamConnection: sockets, keepalive, stall
 * detection, reconnects, decode) and conflating each market's frames before anything crosses
 * (stream-conflation.ts), so the serving thread, which merges and publishes what the streams say
 * and serves HTTP and SSE, receives only what it would publish: at every venue's real push rate
 * (tens of thousands of frames a second, bench:freshness) receiving and decoding alone would take
 * more than its core.
 *
 * `open` is an OpenLiveStream: LiveFeeds uses its streams as it would StreamConnections. Each keeps
 * a copy of what the feeds ask synchronously (`state`, `silentMarkets`), refreshed from the thread.
 * A thread that dies makes every stream report `down` (the feeds poll their venues), and is started
 * again after a wait with every stream still open reopened in it.
 */
export class StreamThread {
  private worker: Worker | undefined;
  private readonly streams = new Map<number, ThreadStream>();
  /** Streams whose close the thread has not confirmed yet. */
  private readonly closing = new Map<number, ThreadStream>();
  private nextId = 0;
  private restartTimer: NodeJS.Timeout | undefined;
  private deathsInRow = 0;
  private startedAt = 0;
  private closed = false;

  constructor(private readonly options: StreamThreadOptions) {}

  readonly open: OpenLiveStream = (options) => new ThreadStream(this, this.nextId++, options);

  /** Ends the thread and every stream in it; streams still open report nothing more. */
  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.restartTimer);
    const worker = this.worker;
    this.worker = undefined;
    for (const stream of [...this.streams.values(), ...this.closing.values()]) stream.threadGone();
    this.streams.clear();
    this.closing.clear();
    await worker?.terminate();
  }

  /** Ends the thread as a crash would (the fault suite and tests): its streams report down, and it is started again. */
  async terminateThread(): Promise<void> {
    await this.worker?.terminate();
  }

  /** @internal A stream started: it is opened in the thread (started now if it is not running). */
  attach(stream: ThreadStream): void {
    if (this.closed) return;
    this.streams.set(stream.id, stream);
    if (this.worker) this.post(stream.openRequest());
    else if (!this.restartTimer) this.startWorker();
  }

  /** @internal A stream closed: answers once the thread has closed its sockets, or at once when there is no thread. */
  detach(stream: ThreadStream): void {
    this.streams.delete(stream.id);
    if (!this.worker) return stream.threadGone();
    this.closing.set(stream.id, stream);
    this.post({ kind: "close", id: stream.id });
  }

  /** @internal */
  post(request: StreamThreadRequest): void {
    this.worker?.postMessage(request);
  }

  private startWorker(): void {
    this.restartTimer = undefined;
    const setup: StreamThreadSetup = {
      override: this.options.override,
      budgets: this.options.budgets ?? venueBudgets().buffer,
      conflation: this.options.conflation,
      flushMs: this.options.flushMs ?? 50,
      backoff: this.options.backoff,
    };
    const worker = new Worker(threadEntry(), { workerData: setup, execArgv: threadExecArgv(process.execArgv) });
    // Never what keeps the process alive: the streams stop when the ingestion does.
    worker.unref();
    worker.on("message", (report: StreamThreadReport) => this.received(report));
    worker.on("error", (error) => log.error({ err: error }, "the stream thread failed"));
    worker.on("exit", (code) => this.exited(worker, code));
    this.worker = worker;
    this.startedAt = Date.now();
    for (const stream of this.streams.values()) {
      stream.reopened();
      this.post(stream.openRequest());
    }
  }

  private exited(worker: Worker, code: number): void {
    if (this.worker !== worker) return;
    this.worker = undefined;
    const streams = [...this.streams.values()];
    if (Date.now() - this.startedAt >= MAX_RESTART_MS) this.deathsInRow = 0;
    const wait = Math.min(MAX_RESTART_MS, (this.options.restartAfterMs ?? 5_000) * 2 ** this.deathsInRow++);
    log.error({ code, streams: streams.length, restartInMs: wait }, "the stream thread exited; its venues are polled until it is started again");
    for (const stream of streams) stream.threadGone(`the stream thread exited (code ${code})`);
    for (const stream of this.closing.values()) stream.threadGone();
    this.closing.clear();
    if (this.closed) return;
    this.restartTimer = setTimeout(() => {
      if (!this.closed && this.streams.size > 0) this.startWorker();
      else this.restartTimer = undefined;
    }, wait);
    this.restartTimer.unref();
  }

  private received(report: StreamThreadReport): void {
    if (report.kind === "flush") {
      for (const flush of report.streams) this.streams.get(flush.id)?.flushed(flush);
      return;
    }
    if (report.kind === "closed") {
      this.closing.get(report.id)?.threadGone();
      this.closing.delete(report.id);
      return;
    }
    if (report.kind === "loop") {
      metrics().streamThreadLoopDelay.observe(report.maxMs / 1000);
      return;
    }
    const stream = this.streams.get(report.id);
    if (!stream) return;
    switch (report.kind) {
      case "state":
        stream.stateChanged(report.state, report.reason);
        break;
      case "reconnect":
        stream.options.onReconnect?.(report.at);
        break;
      case "error":
        stream.options.onError?.(report.message);
        break;
      case "silent":
        stream.silent = report.markets;
        break;
    }
  }
}

/**
 * A venue's stream as the feeds see it: a proxy of the StreamConnection in the thread. Of its
 * options only the protocol's venue and plain settings and the callbacks are used: the URL rewrite,
 * the token fetch and the clock are the thread's own, built from the StreamThread's setup.
 */
class ThreadStream implements LiveStream {
  private current: LiveStreamState = "connecting";
  private markets: readonly string[];
  private silenceMs: number | undefined;
  private started = false;
  private closed = false;
  private whenClosed: (() => void) | undefined;
  /** The markets the thread last reported silent. */
  silent: readonly string[] = [];

  constructor(
    private readonly host: StreamThread,
    readonly id: number,
    readonly options: LiveStreamOptions,
  ) {
    this.markets = [...options.venueMarketIds];
  }

  get state(): LiveStreamState {
    return this.closed ? "down" : this.current;
  }

  start(): void {
    if (this.started || this.closed) return;
    this.started = true;
    this.host.attach(this);
  }

  setMarkets(venueMarketIds: readonly string[]): void {
    if (this.closed) return;
    this.markets = [...venueMarketIds];
    if (this.started) this.host.post({ kind: "markets", id: this.id, markets: this.markets });
  }

  silentMarkets(ms: number): string[] {
    if (this.silenceMs !== ms) {
      // The thread looks for them from now on; the first answer comes with its next check.
      this.silenceMs = ms;
      this.host.post({ kind: "silence", id: this.id, ms });
    }
    return this.state === "live" ? [...this.silent] : [];
  }

  close(): Promise<void> {
    if (this.closed) return Promise.resolve();
    this.closed = true;
    if (!this.started) return Promise.resolve();
    return new Promise((resolve) => {
      this.whenClosed = resolve;
      this.host.detach(this);
    });
  }

  /** @internal What opens this stream in a (new) thread. */
  openRequest(): StreamThreadRequest {
    const { stallAfterMs, maxLifetimeMs, keepalive, venue } = this.options.protocol;
    return { kind: "open", id: this.id, venue, settings: { stallAfterMs, maxLifetimeMs, keepalive }, markets: this.markets };
  }

  /** @internal The thread is gone (it died, or was closed): a closing stream is closed, an open one down. */
  threadGone(reason?: string): void {
    this.silent = [];
    this.whenClosed?.();
    this.whenClosed = undefined;
    if (!this.closed && reason !== undefined) this.stateChanged("down", reason);
  }

  /** @internal Opened again in a new thread. */
  reopened(): void {
    if (this.silenceMs !== undefined) this.silenceMs = undefined;
    this.stateChanged("connecting", "the stream thread was started again");
  }

  /** @internal */
  stateChanged(state: LiveStreamState, reason?: string): void {
    if (this.closed || state === this.current) return;
    this.current = state;
    if (state !== "live") this.silent = [];
    this.options.onState(state, reason);
  }

  /** @internal The thread's news of this stream's markets. */
  flushed({ updates, frames, lastMessageAt }: StreamFlush): void {
    if (this.closed) return;
    let receivedAt = lastMessageAt;
    const placed: StreamUpdate[] = updates.map((update) => {
      receivedAt = Math.max(receivedAt, update.receivedAt);
      // The venue's time, else the arrival of the market's last frame (not the flush's): the
      // observation time a merge of that frame alone would have given it.
      return { venueMarketId: update.venueMarketId, fields: update.fields, venueTime: update.venueTime ?? update.receivedAt };
    });
    this.options.onUpdates(placed, receivedAt, frames);
  }
}
