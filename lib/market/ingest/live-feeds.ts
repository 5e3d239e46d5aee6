import { logger } from "@/lib/observability/logger";
import type { MarketSnapshot, VenueId, VenueSnapshotResult } from "../model/types";
import type { VenueFetcher } from "../venues/fetch-all-venues";
import type { StreamUpdate, VenueStreamProtocol } from "../venues/streams/stream-protocol";
import type { FeedStatusRecorder, Transport } from "./feed-status";
import type { LegUpdateSink } from "./leg-updates";
import type { LiveStream, LiveStreamState, OpenLiveStream } from "./live-stream";
import { mergeStreamUpdates, valuesDiffer } from "./merge-stream-update";

const log = logger("live-feeds");

export interface LiveFeedsOptions {
  /** The venues that stream, with their protocol; every other venue is polled at its cadence. */
  protocols: Partial<Record<VenueId, VenueStreamProtocol>>;
  sink: LegUpdateSink;
  status: FeedStatusRecorder;
  /** The rounds' fetcher: polls draw from the same per-venue budget (venue-budget.ts) inside it. */
  fetcher: VenueFetcher;
  openStream: OpenLiveStream;
  /** How long between two refreshes of a polled venue (venue-request-limits.ts pollCadenceMs). */
  cadenceMs: (venue: VenueId, markets: number) => number;
  now?: () => number;
  /** Rewrites stream URLs (a loopback replay server; ingest-config.ts streamUrlResolver). */
  resolveUrl?: (url: string) => string;
  /** Handed to protocols that ask REST for their socket URL (with resolveUrl, one that goes to the same replay server). */
  fetch?: typeof globalThis.fetch;
  /**
   * Waits for a request token of the venue's budget (venue-budget.ts): a protocol's REST request for
   * its socket URL (KuCoin's connect token, again at every reconnect) counts like every other.
   */
  takeToken?: (venue: VenueId) => Promise<void>;
  /** Deadline of one poll (INGEST_VENUE_TIMEOUT_MS). */
  pollTimeoutMs?: number;
  /**
   * A market silent this many times its protocol's stallAfterMs while the venue's stream is live
   * gets its venue polled once, to refresh it.
   */
  silenceFactor?: number;
}

/** What the feeds counted since they started (logged at close; tests read them). */
export interface LiveFeedCounts {
  /** Stream updates of markets the last round did not list (by id, or by a stream key no listed market has). */
  unknownUpdates: number;
  /** Polls answered (ok or stale), and of them the stale ones. */
  polls: number;
  failedPolls: number;
  /** Polls made because markets fell silent on a live stream. */
  silencePolls: number;
  /** Errors the streams reported (undecodable frames, refusals). */
  streamErrors: number;
  /** Snapshots handed to the sink. */
  pushed: number;
}

interface Feed {
  venue: VenueId;
  protocol: VenueStreamProtocol | undefined;
  /** venueMarketId → the last published state: the round's snapshot with what streams and polls changed since. */
  base: Map<string, MarketSnapshot>;
  /**
   * Where the protocol names markets by its own key (VenueStreamProtocol.streamKey): key →
   * venueMarketId of the base's markets. Undefined where the stream names them by venueMarketId.
   */
  idOfKey: Map<string, string> | undefined;
  /** The names the stream is subscribed by, sorted and joined: tells a changed market list. */
  marketKey: string;
  stream: LiveStream | undefined;
  streamState: LiveStreamState | undefined;
  transport: Transport | undefined;
  /** When the venue's last REST refresh (the round's, or a poll) started. */
  lastRefreshAt: number;
  lastSilencePollAt: number;
  pollTimer: NodeJS.Timeout | undefined;
  silenceTimer: NodeJS.Timeout | undefined;
  polling: Promise<void> | undefined;
}

/**
 * Keeps every venue's numbers fresh between rounds. Each round hands over its answers: they become
 * each venue's base, and the venues with a stream protocol get (or resubscribe) their stream. A
 * stream message is merged over its market's base and, when it changed something, pushed to the
 * sink; venues without a protocol, and venues whose stream is not live (still connecting,
 * reconnecting, stalled, down), are polled at their cadence with the rounds' fetcher and what
 * changed is pushed likewise. A stream that comes back live stops the polling. A market that falls
 * silent on a live stream has its venue polled once to refresh it.
 */
export class LiveFeeds {
  private readonly feeds = new Map<VenueId, Feed>();
  private readonly now: () => number;
  private closed = false;
  readonly counts: LiveFeedCounts = { unknownUpdates: 0, polls: 0, failedPolls: 0, silencePolls: 0, streamErrors: 0, pushed: 0 };

  constructor(private readonly options: LiveFeedsOptions) {
    this.now = options.now ?? Date.now;
  }

  /** A round published: its answers are the new bases; streams open or follow its market lists. */
  onRound(results: readonly VenueSnapshotResult[]): void {
    if (this.closed) return;
    for (const result of results) {
      // A stale venue keeps the base of its last answer, and its polling if it has any.
      if (result.status !== "ok") continue;
      const feed = this.feed(result.exchange);
      feed.base = new Map(result.snapshots.map((snapshot) => [snapshot.venueMarketId, snapshot]));
      feed.lastRefreshAt = Math.max(feed.lastRefreshAt, result.fetchedAt);
      feed.idOfKey = streamKeys(feed.protocol, result.snapshots);
      // What the stream subscribes by: the markets' stream keys, else their ids.
      const names = [...(feed.idOfKey ?? feed.base).keys()].sort();
      const key = names.join("\n");
      if (feed.protocol && names.length > 0) {
        if (!feed.stream) this.open(feed, names);
        else if (key !== feed.marketKey) feed.stream.setMarkets(names);
      }
      feed.marketKey = key;
      this.settleTransport(feed);
      this.schedulePoll(feed);
    }
  }

  /** Each venue's transport as last reported (venues no round has answered yet are absent). */
  transports(): Partial<Record<VenueId, Transport>> {
    return Object.fromEntries([...this.feeds.values()].flatMap((feed) => (feed.transport ? [[feed.venue, feed.transport]] : [])));
  }

  /** Stops every timer and stream; a poll in flight is waited for and its answer dropped. */
  async close(): Promise<void> {
    this.closed = true;
    const pending: Promise<unknown>[] = [];
    for (const feed of this.feeds.values()) {
      clearTimeout(feed.pollTimer);
      clearInterval(feed.silenceTimer);
      feed.pollTimer = feed.silenceTimer = undefined;
      if (feed.stream) pending.push(feed.stream.close());
      if (feed.polling) pending.push(feed.polling);
    }
    await Promise.allSettled(pending);
    log.debug({ counts: this.counts }, "live feeds closed");
  }

  private feed(venue: VenueId): Feed {
    let feed = this.feeds.get(venue);
    if (!feed) {
      feed = {
        venue,
        protocol: this.options.protocols[venue],
        base: new Map(),
        idOfKey: undefined,
        marketKey: "",
        stream: undefined,
        streamState: undefined,
        transport: undefined,
        lastRefreshAt: -Infinity,
        lastSilencePollAt: -Infinity,
        pollTimer: undefined,
        silenceTimer: undefined,
        polling: undefined,
      };
      this.feeds.set(venue, feed);
    }
    return feed;
  }

  /** Opens the venue's stream; one that cannot be opened leaves the venue polled, and the next round tries again. */
  private open(feed: Feed, ids: readonly string[]): void {
    try {
      this.openStream(feed, ids);
    } catch (error) {
      feed.stream = undefined;
      feed.streamState = undefined;
      this.counts.streamErrors++;
      log.error({ err: error, venue: feed.venue }, "opening the venue's stream failed; it is polled");
      this.settleTransport(feed, `stream could not open: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  private openStream(feed: Feed, ids: readonly string[]): void {
    const protocol = feed.protocol!;
    const stream = this.options.openStream({
      protocol,
      venueMarketIds: ids,
      resolveUrl: this.options.resolveUrl,
      fetch: this.budgetedFetch(feed.venue),
      now: this.options.now,
      onUpdates: (updates, receivedAt, frames) => {
        if (this.closed) return;
        this.options.status.message(feed.venue, receivedAt, frames ?? 1);
        const { placed, unplaced } = placeUpdates(feed.idOfKey, updates);
        const { changed, unknown } = mergeStreamUpdates(feed.base, placed, receivedAt);
        this.counts.unknownUpdates += unknown + unplaced;
        this.push(changed);
      },
      onState: (state, reason) => {
        if (this.closed) return;
        feed.streamState = state;
        this.settleTransport(feed, `stream ${state}${reason ? `: ${reason}` : ""}`);
        this.schedulePoll(feed);
      },
      onReconnect: (at) => {
        if (!this.closed) this.options.status.reconnect(feed.venue, at);
      },
      onError: (message) => {
        this.counts.streamErrors++;
        log.debug({ venue: feed.venue }, `stream error: ${message}`);
      },
    });
    feed.stream = stream;
    feed.streamState = stream.state;
    try {
      stream.start();
    } catch (error) {
      void stream.close().catch(() => undefined);
      throw error;
    }
    const every = Math.max(1_000, protocol.stallAfterMs);
    feed.silenceTimer = setInterval(() => this.checkSilence(feed), every);
    feed.silenceTimer.unref();
  }

  private budgetedFetch(venue: VenueId): typeof globalThis.fetch | undefined {
    const { fetch, takeToken } = this.options;
    if (!takeToken) return fetch;
    const send = fetch ?? globalThis.fetch;
    return async (input, init) => {
      await takeToken(venue);
      return send(input, init);
    };
  }

  /** Polled: no stream, or one that is not live. */
  private polled(feed: Feed): boolean {
    return !feed.stream || feed.streamState !== "live";
  }

  /** Reports the venue's transport when it changed, with why it is polled. */
  private settleTransport(feed: Feed, streamReason?: string): void {
    const transport: Transport = this.polled(feed) ? "poll" : "stream";
    if (transport === feed.transport) return;
    feed.transport = transport;
    if (transport === "stream") return this.options.status.transport(feed.venue, "stream");
    const reason = !feed.protocol ? "no stream for this venue" : (streamReason ?? `stream ${feed.streamState ?? "not open"}`);
    this.options.status.transport(feed.venue, "poll", reason);
  }

  private schedulePoll(feed: Feed): void {
    clearTimeout(feed.pollTimer);
    feed.pollTimer = undefined;
    if (this.closed || !this.polled(feed) || feed.base.size === 0) return;
    const delay = Math.max(0, feed.lastRefreshAt + this.options.cadenceMs(feed.venue, feed.base.size) - this.now());
    feed.pollTimer = setTimeout(() => {
      feed.pollTimer = undefined;
      void this.poll(feed);
    }, delay);
    feed.pollTimer.unref();
  }

  private checkSilence(feed: Feed): void {
    if (this.closed || !feed.stream || !feed.protocol || feed.streamState !== "live" || feed.polling) return;
    const window = (this.options.silenceFactor ?? 3) * feed.protocol.stallAfterMs;
    const at = this.now();
    // Once per window (and never more often than the venue's cadence): a market the stream never
    // carries again is refreshed at that pace, not at every check.
    if (at - feed.lastSilencePollAt < Math.max(window, this.options.cadenceMs(feed.venue, feed.base.size))) return;
    const silent = feed.stream.silentMarkets(window, at).flatMap((key) => {
      const id = feed.idOfKey ? feed.idOfKey.get(key) : key;
      return id !== undefined && feed.base.has(id) ? [id] : [];
    });
    if (silent.length === 0) return;
    feed.lastSilencePollAt = at;
    this.counts.silencePolls++;
    void this.poll(feed, new Set(silent));
  }

  /** One refresh of the venue through the rounds' fetcher; `only` limits what it changes to those markets. */
  private poll(feed: Feed, only?: ReadonlySet<string>): Promise<void> {
    if (feed.polling) return feed.polling;
    const started = this.now();
    feed.lastRefreshAt = started;
    const run = async () => {
      const result = await this.options
        .fetcher(feed.venue, { timeoutMs: this.options.pollTimeoutMs ?? 10_000 })
        .catch((error: unknown): VenueSnapshotResult => ({ status: "stale", exchange: feed.venue, fetchedAt: started, error: String(error) }));
      if (this.closed) return;
      this.counts.polls++;
      if (result.status !== "ok") {
        this.counts.failedPolls++;
        log.debug({ venue: feed.venue }, `poll failed: ${result.error}`);
        return;
      }
      this.options.status.message(feed.venue, this.now());
      const changed: MarketSnapshot[] = [];
      for (const snapshot of result.snapshots) {
        const id = snapshot.venueMarketId;
        if (only && !only.has(id)) continue;
        const base = feed.base.get(id);
        // A market the round did not list waits for the round, which owns the market lists.
        if (!base) continue;
        // A stream message newer than the answer stays.
        if (base.transport === "stream" && base.observedAt > snapshot.observedAt) continue;
        const polled: MarketSnapshot = { ...snapshot, transport: "poll" };
        feed.base.set(id, polled);
        if (valuesDiffer(base, polled)) changed.push(polled);
      }
      this.push(changed);
    };
    feed.polling = run().finally(() => {
      feed.polling = undefined;
      this.schedulePoll(feed);
    });
    return feed.polling;
  }

  private push(changed: readonly MarketSnapshot[]): void {
    if (changed.length === 0) return;
    this.counts.pushed += changed.length;
    try {
      this.options.sink.push(changed);
    } catch (error) {
      // The sink's failure is its own: the feeds keep their bases and carry on.
      log.error({ err: error }, "the leg update sink failed");
    }
  }
}

/**
 * The protocol's stream key of each listed market (key → venueMarketId), or undefined where the
 * protocol names markets by their venueMarketId.
 */
function streamKeys(protocol: VenueStreamProtocol | undefined, snapshots: readonly MarketSnapshot[]): Map<string, string> | undefined {
  const keyOf = protocol?.streamKey;
  if (!keyOf) return undefined;
  const keys = new Map<string, string>();
  for (const snapshot of snapshots) {
    const key = keyOf(snapshot);
    // Two markets under one key would take each other's messages: the first listed keeps it.
    if (key === "" || keys.has(key)) {
      log.warn({ venue: snapshot.exchange, key, venueMarketId: snapshot.venueMarketId }, "a market's stream key is empty or taken; it is not streamed");
      continue;
    }
    keys.set(key, snapshot.venueMarketId);
  }
  return keys;
}

/** Updates named by stream key, renamed to the market's venueMarketId; a key no listed market has is dropped and counted. */
function placeUpdates(idOfKey: ReadonlyMap<string, string> | undefined, updates: readonly StreamUpdate[]): { placed: readonly StreamUpdate[]; unplaced: number } {
  if (!idOfKey) return { placed: updates, unplaced: 0 };
  const placed: StreamUpdate[] = [];
  for (const update of updates) {
    const id = idOfKey.get(update.venueMarketId);
    if (id !== undefined) placed.push({ ...update, venueMarketId: id });
  }
  return { placed, unplaced: updates.length - placed.length };
}
