import type { VenueId } from "../model/types";
import type { FeedStatusRecorder, Transport } from "./feed-status";
import { HISTOGRAM_BUCKETS, bucketOf, quantile } from "./latency-histogram";

const MINUTE_MS = 60_000;
/** The latency percentiles and the chart series cover this many minutes, the current one included. */
export const LATENCY_WINDOW_MINUTES = 60;
/** Reconnects are counted over this long. */
export const RECONNECT_WINDOW_MS = 24 * 3_600_000;

/** One minute of a venue's feed, for the charts: its data messages and the p99 of its venue-to-publish latency. */
export interface FeedMinute {
  /** Epoch ms of the minute's start. */
  at: number;
  messages: number;
  /** Null when nothing of the venue was published that minute. */
  p99Ms: number | null;
}

/** What the board says of one venue at a moment: what VenueFeedStatus stores and GET /v1/exchanges serves. */
export interface FeedStatusFigures {
  venue: VenueId;
  transport: Transport;
  /** Why the venue is polled when it has a stream (a stall, a failed subscription); null otherwise. */
  transportReason: string | null;
  /** Epoch ms of the last data message or answer; null before the first. */
  lastMessageAt: number | null;
  reconnects24h: number;
  /** Over the last LATENCY_WINDOW_MINUTES; null without samples. */
  latencyP50Ms: number | null;
  latencyP99Ms: number | null;
  latencySamples: number;
  /** How often the venue is polled while its transport is `poll`, when whoever polls it said so. */
  pollIntervalMs: number | null;
  /** The last LATENCY_WINDOW_MINUTES minutes, oldest first, every minute present. */
  series: FeedMinute[];
}

/** One minute's counts; its slot is reused LATENCY_WINDOW_MINUTES minutes later. */
interface MinuteSlot {
  minute: number;
  messages: number;
  samples: number;
  min: number;
  max: number;
  /** Allocated at the minute's first latency sample. */
  counts: Uint32Array | null;
}

interface VenueFeed {
  transport: Transport;
  reason: string | null;
  lastMessageAt: number | null;
  pollIntervalMs: number | null;
  slots: (MinuteSlot | undefined)[];
  /** Reconnects per minute (the minute's number), pruned past RECONNECT_WINDOW_MS: at most 1,440 entries. */
  reconnects: Map<number, number>;
}

/**
 * What the feeds report about themselves, kept by the ingesting process: per venue its transport,
 * last message, reconnects over 24 hours and venue-to-publish latency over the last hour. Memory is
 * bounded whatever the message rate: a ring of LATENCY_WINDOW_MINUTES minute slots, each a fixed
 * log-bucket histogram (latency-histogram.ts), and at most a count per minute of reconnects.
 * Pure (every method takes its time); FeedStatusWriter persists `figures()` for the other servers.
 */
export class FeedStatusBoard implements FeedStatusRecorder {
  private readonly venues = new Map<VenueId, VenueFeed>();

  message(venue: VenueId, receivedAt: number, count = 1): void {
    const feed = this.feed(venue);
    if (feed.lastMessageAt === null || receivedAt > feed.lastMessageAt) feed.lastMessageAt = receivedAt;
    const slot = this.slot(feed, receivedAt);
    if (slot) slot.messages += count;
  }

  reconnect(venue: VenueId, at: number): void {
    const feed = this.feed(venue);
    const minute = Math.floor(at / MINUTE_MS);
    feed.reconnects.set(minute, (feed.reconnects.get(minute) ?? 0) + 1);
    pruneReconnects(feed, at);
  }

  transport(venue: VenueId, transport: Transport, reason?: string): void {
    const feed = this.feed(venue);
    feed.transport = transport;
    feed.reason = reason ?? null;
  }

  published(venue: VenueId, observedAt: number, publishedAt: number): void {
    const slot = this.slot(this.feed(venue), publishedAt);
    if (!slot) return;
    const latency = Math.max(0, publishedAt - observedAt);
    slot.counts ??= new Uint32Array(HISTOGRAM_BUCKETS);
    slot.counts[bucketOf(latency)]! += 1;
    slot.samples += 1;
    slot.min = Math.min(slot.min, latency);
    slot.max = Math.max(slot.max, latency);
  }

  /** How often `venue` is polled while polled (the poller's cadence), for GET /v1/exchanges. */
  pollInterval(venue: VenueId, ms: number): void {
    this.feed(venue).pollIntervalMs = ms;
  }

  /** The venues heard of, as of `now`. */
  figures(now: number): FeedStatusFigures[] {
    return [...this.venues.entries()].map(([venue, feed]) => figuresOf(venue, feed, now));
  }

  /** How many minute histograms and reconnect minutes the board holds: what its memory grows with. */
  retained(): { histograms: number; reconnectMinutes: number } {
    let histograms = 0;
    let reconnectMinutes = 0;
    for (const feed of this.venues.values()) {
      histograms += feed.slots.filter((slot) => slot?.counts).length;
      reconnectMinutes += feed.reconnects.size;
    }
    return { histograms, reconnectMinutes };
  }

  private feed(venue: VenueId): VenueFeed {
    let feed = this.venues.get(venue);
    if (!feed) {
      feed = { transport: "poll", reason: null, lastMessageAt: null, pollIntervalMs: null, slots: [], reconnects: new Map() };
      this.venues.set(venue, feed);
    }
    return feed;
  }

  /** The slot of the minute of `at`, emptied if it held an older minute; undefined for a time older than the slot's minute. */
  private slot(feed: VenueFeed, at: number): MinuteSlot | undefined {
    const minute = Math.floor(at / MINUTE_MS);
    const index = ((minute % LATENCY_WINDOW_MINUTES) + LATENCY_WINDOW_MINUTES) % LATENCY_WINDOW_MINUTES;
    let slot = feed.slots[index];
    if (slot && slot.minute > minute) return undefined;
    if (!slot || slot.minute < minute) {
      slot = { minute, messages: 0, samples: 0, min: Infinity, max: -Infinity, counts: slot?.counts ?? null };
      slot.counts?.fill(0);
      feed.slots[index] = slot;
    }
    return slot;
  }
}

function pruneReconnects(feed: VenueFeed, now: number): void {
  const oldest = Math.floor((now - RECONNECT_WINDOW_MS) / MINUTE_MS);
  for (const minute of feed.reconnects.keys()) if (minute <= oldest) feed.reconnects.delete(minute);
}

function figuresOf(venue: VenueId, feed: VenueFeed, now: number): FeedStatusFigures {
  const current = Math.floor(now / MINUTE_MS);
  const first = current - LATENCY_WINDOW_MINUTES + 1;
  const counts = new Float64Array(HISTOGRAM_BUCKETS);
  let samples = 0;
  let min = Infinity;
  let max = -Infinity;
  const byMinute = new Map<number, MinuteSlot>();
  for (const slot of feed.slots) {
    if (!slot || slot.minute < first || slot.minute > current) continue;
    byMinute.set(slot.minute, slot);
    if (!slot.counts || slot.samples === 0) continue;
    for (let b = 0; b < HISTOGRAM_BUCKETS; b++) counts[b]! += slot.counts[b]!;
    samples += slot.samples;
    min = Math.min(min, slot.min);
    max = Math.max(max, slot.max);
  }
  const series: FeedMinute[] = [];
  for (let minute = first; minute <= current; minute++) {
    const slot = byMinute.get(minute);
    const p99 = slot?.counts && slot.samples > 0 ? quantile(slot.counts, slot.samples, 0.99, slot.min, slot.max) : null;
    series.push({ at: minute * MINUTE_MS, messages: slot?.messages ?? 0, p99Ms: p99 === null ? null : round1(p99) });
  }
  const oldestReconnect = Math.floor((now - RECONNECT_WINDOW_MS) / MINUTE_MS);
  let reconnects24h = 0;
  for (const [minute, count] of feed.reconnects) if (minute > oldestReconnect && minute <= current) reconnects24h += count;
  const p50 = quantile(counts, samples, 0.5, min, max);
  const p99 = quantile(counts, samples, 0.99, min, max);
  return {
    venue,
    transport: feed.transport,
    transportReason: feed.reason,
    lastMessageAt: feed.lastMessageAt,
    reconnects24h,
    latencyP50Ms: p50 === null ? null : round1(p50),
    latencyP99Ms: p99 === null ? null : round1(p99),
    latencySamples: samples,
    pollIntervalMs: feed.pollIntervalMs,
    series,
  };
}

function round1(ms: number): number {
  return Math.round(ms * 10) / 10;
}
