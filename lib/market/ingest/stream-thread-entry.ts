// Runs inside the StreamThread (stream-thread.ts): every venue's StreamConnection (sockets,
// keepalive, stall detection, reconnects, decode) and the per-market conflation, so the serving
// thread receives only what it would publish: news at once, every market's latest once a refresh
// period, each venue's last message time, and its state changes, reconnects and errors.
import { monitorEventLoopDelay } from "node:perf_hooks";
import { parentPort, workerData } from "node:worker_threads";
import type { VenueId } from "../model/types";
import type { BackoffPolicy } from "../venues/streams/backoff";
import { StreamConnection, type StreamState } from "../venues/streams/stream-connection";
import type { VenueStreamProtocol } from "../venues/streams/stream-protocol";
import { STREAM_PROTOCOLS } from "../venues/streams/stream-protocols";
import { adoptVenueBudgets, venueBudgets } from "../venues/venue-budget";
import { overrideFetch, overrideStreamUrl } from "./ingest-config";
import { StreamConflation, type ConflatedUpdate, type ConflationRule } from "./stream-conflation";

/**
 * What the thread is built from (functions do not cross threads): the stream URL override
 * (VENUE_STREAM_URL_OVERRIDE, rebuilt here into the URL rewrite and the token fetch), the buffer of
 * the process's venue budgets (KuCoin's token requests draw from the same bucket as every other
 * request of the venue), the conflation rule and how often the thread hands over what it gathered.
 */
export interface StreamThreadSetup {
  override?: string;
  budgets?: SharedArrayBuffer;
  conflation: ConflationRule;
  /** How often gathered news crosses to the serving thread (ms). */
  flushMs: number;
  /** Reconnect backoff (tests shorten it). */
  backoff?: BackoffPolicy;
}

/** A protocol's plain settings, sent with its venue: the thread takes the code from STREAM_PROTOCOLS and these over it (tests shorten the stall). */
export type StreamProtocolSettings = Pick<VenueStreamProtocol, "stallAfterMs" | "maxLifetimeMs" | "keepalive">;

export type StreamThreadRequest =
  | { kind: "open"; id: number; venue: VenueId; settings: StreamProtocolSettings; markets: readonly string[] }
  | { kind: "markets"; id: number; markets: readonly string[] }
  /** Report the stream's markets silent this long (LiveStream.silentMarkets' window). */
  | { kind: "silence"; id: number; ms: number }
  | { kind: "close"; id: number };

/** One stream's share of a flush: its conflated updates, and the frames it received since the last. */
export interface StreamFlush {
  id: number;
  updates: ConflatedUpdate[];
  frames: number;
  /** When its last frame with market data arrived; 0 when none did since the last flush. */
  lastMessageAt: number;
}

export type StreamThreadReport =
  | { kind: "flush"; streams: StreamFlush[] }
  | { kind: "state"; id: number; state: StreamState; reason?: string }
  | { kind: "reconnect"; id: number; at: number }
  | { kind: "error"; id: number; message: string }
  | { kind: "silent"; id: number; markets: string[] }
  | { kind: "closed"; id: number }
  /** The thread's longest event-loop delay over the last LOOP_REPORT_MS: how late its stall checks and socket reads ran. */
  | { kind: "loop"; maxMs: number };

interface ThreadStream {
  connection: StreamConnection;
  conflation: StreamConflation;
  frames: number;
  lastMessageAt: number;
  silenceMs: number | undefined;
  /** The silent markets last reported, joined: a list is sent only when it changed. */
  silentKey: string;
}

/** How often the silent markets are looked for: the windows asked are several seconds long. */
const SILENCE_CHECK_MS = 1_000;

/** How often the thread reports its longest event-loop delay. */
const LOOP_REPORT_MS = 1_000;

function runThread(port: NonNullable<typeof parentPort>, setup: StreamThreadSetup): void {
  if (setup.budgets) adoptVenueBudgets(setup.budgets);
  const override = setup.override;
  const resolveUrl = override ? (url: string) => overrideStreamUrl(override, url) : undefined;
  const send = override ? overrideFetch(override) : globalThis.fetch;
  const streams = new Map<number, ThreadStream>();
  const report = (message: StreamThreadReport) => port.postMessage(message);

  const budgetedFetch = (venue: VenueId): typeof globalThis.fetch => async (input, init) => {
    await venueBudgets().take(venue, "live");
    return send(input, init);
  };

  const open = (id: number, venue: VenueId, settings: StreamProtocolSettings, markets: readonly string[]) => {
    const known = STREAM_PROTOCOLS[venue];
    if (!known) {
      report({ kind: "error", id, message: `${venue}: no stream protocol in this thread` });
      report({ kind: "state", id, state: "down", reason: "no stream protocol for this venue" });
      return;
    }
    const gathered = { conflation: new StreamConflation(setup.conflation), frames: 0, lastMessageAt: 0, silenceMs: undefined, silentKey: "" };
    const connection = new StreamConnection({
      protocol: { ...known, ...settings },
      venueMarketIds: markets,
      resolveUrl,
      fetch: budgetedFetch(venue),
      backoff: setup.backoff,
      onUpdates: (updates, receivedAt) => {
        gathered.frames += 1;
        gathered.lastMessageAt = Math.max(gathered.lastMessageAt, receivedAt);
        for (const update of updates) gathered.conflation.offer(update, receivedAt);
      },
      onState: (state, reason) => {
        // The feeds polled the venue while the stream was not live: what they hold is no longer what was forwarded.
        if (state === "live") gathered.conflation.resync();
        report({ kind: "state", id, state, reason });
      },
      onReconnect: (at) => report({ kind: "reconnect", id, at }),
      onError: (message) => report({ kind: "error", id, message }),
    });
    const stream: ThreadStream = Object.assign(gathered, { connection });
    streams.set(id, stream);
    stream.connection.start();
  };

  const flush = () => {
    const now = Date.now();
    const out: StreamFlush[] = [];
    for (const [id, stream] of streams) {
      const updates = stream.conflation.take(now);
      if (updates.length === 0 && stream.frames === 0) continue;
      out.push({ id, updates, frames: stream.frames, lastMessageAt: stream.lastMessageAt });
      stream.frames = 0;
      stream.lastMessageAt = 0;
    }
    if (out.length > 0) report({ kind: "flush", streams: out });
  };

  const reportSilence = () => {
    for (const [id, stream] of streams) {
      if (stream.silenceMs === undefined) continue;
      const markets = stream.connection.silentMarkets(stream.silenceMs);
      const key = markets.join("\n");
      if (key === stream.silentKey) continue;
      stream.silentKey = key;
      report({ kind: "silent", id, markets });
    }
  };

  // Whether the thread keeps up with its sockets, for GET /metrics: a thread that falls behind reads
  // every venue's frames late (the stall checks count only the time it listened, stream-connection.ts).
  const loop = monitorEventLoopDelay({ resolution: 20 });
  loop.enable();
  const reportLoop = () => {
    report({ kind: "loop", maxMs: loop.max / 1e6 });
    loop.reset();
  };

  setInterval(flush, setup.flushMs);
  setInterval(reportSilence, SILENCE_CHECK_MS);
  setInterval(reportLoop, LOOP_REPORT_MS);

  port.on("message", (request: StreamThreadRequest) => {
    switch (request.kind) {
      case "open":
        open(request.id, request.venue, request.settings, request.markets);
        break;
      case "markets": {
        const stream = streams.get(request.id);
        stream?.conflation.keepOnly(request.markets);
        stream?.connection.setMarkets(request.markets);
        break;
      }
      case "silence": {
        const stream = streams.get(request.id);
        if (stream) stream.silenceMs = request.ms;
        break;
      }
      case "close": {
        const stream = streams.get(request.id);
        streams.delete(request.id);
        void (stream?.connection.close() ?? Promise.resolve()).then(() => report({ kind: "closed", id: request.id }));
        break;
      }
    }
  });
}

if (parentPort) runThread(parentPort, workerData as StreamThreadSetup);
