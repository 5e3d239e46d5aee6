import { z } from "zod";
import type { Db } from "@/lib/db";
import { directSql } from "@/lib/db/direct-sql";
import { venueIdSchema, type VenueId } from "../model/types";
import type { VenueFeed, VenueFeedMinute } from "../model/venue-feed";
import type { FeedStatusFigures } from "./feed-status-board";

/** A venue's feed as stored by the ingesting process, and when it stored it. */
export interface StoredFeedStatus extends Omit<FeedStatusFigures, "series"> {
  series: VenueFeedMinute[];
  updatedAt: number;
}

const seriesSchema = z.array(z.object({ at: z.number(), messages: z.number(), p99Ms: z.number().nullable() }));

/**
 * The board's figures as of `now`, one row per venue, in one statement through the driver: a
 * transaction of one upsert a venue outlived Prisma's transaction timeout while a busy ingesting
 * thread (a wide micro-batch) held its callbacks back, and the board then stood still.
 */
export async function writeFeedStatus(db: Db, figures: readonly FeedStatusFigures[], now: number): Promise<void> {
  const rows = figures.map((f) => ({
    venue: f.venue,
    transport: f.transport,
    transport_reason: f.transportReason,
    last_message_at: f.lastMessageAt === null ? null : new Date(f.lastMessageAt).toISOString(),
    reconnects_24h: f.reconnects24h,
    latency_p50_ms: f.latencyP50Ms,
    latency_p99_ms: f.latencyP99Ms,
    latency_samples: f.latencySamples,
    poll_interval_ms: f.pollIntervalMs,
    series: f.series.map((m) => ({ at: m.at, messages: m.messages, p99Ms: m.p99Ms })),
  }));
  await directSql(db).query({
    text: `
    INSERT INTO "VenueFeedStatus" (venue, transport, "transportReason", "lastMessageAt", "reconnects24h", "latencyP50Ms", "latencyP99Ms",
                                   "latencySamples", "pollIntervalMs", series, "updatedAt")
    SELECT r.venue, r.transport, r.transport_reason, r.last_message_at, r.reconnects_24h, r.latency_p50_ms, r.latency_p99_ms,
           r.latency_samples, r.poll_interval_ms, r.series, $2::timestamp(3)
    FROM jsonb_to_recordset($1::jsonb) AS r(venue text, transport text, transport_reason text, last_message_at timestamp(3), reconnects_24h int,
                                            latency_p50_ms float8, latency_p99_ms float8, latency_samples int, poll_interval_ms int, series jsonb)
    ON CONFLICT (venue) DO UPDATE SET
      transport = EXCLUDED.transport, "transportReason" = EXCLUDED."transportReason", "lastMessageAt" = EXCLUDED."lastMessageAt",
      "reconnects24h" = EXCLUDED."reconnects24h", "latencyP50Ms" = EXCLUDED."latencyP50Ms", "latencyP99Ms" = EXCLUDED."latencyP99Ms",
      "latencySamples" = EXCLUDED."latencySamples", "pollIntervalMs" = EXCLUDED."pollIntervalMs", series = EXCLUDED.series, "updatedAt" = EXCLUDED."updatedAt"`,
    values: [JSON.stringify(rows), new Date(now).toISOString()],
  });
}

/** Every stored venue's feed; a row of an unknown venue or a damaged series is left out. */
export async function readFeedStatus(db: Db): Promise<Map<VenueId, StoredFeedStatus>> {
  const rows = await db.venueFeedStatus.findMany();
  const feeds = new Map<VenueId, StoredFeedStatus>();
  for (const row of rows) {
    const venue = venueIdSchema.safeParse(row.venue);
    const series = seriesSchema.safeParse(row.series);
    if (!venue.success || !series.success || (row.transport !== "stream" && row.transport !== "poll")) continue;
    feeds.set(venue.data, {
      venue: venue.data,
      transport: row.transport,
      transportReason: row.transportReason,
      lastMessageAt: row.lastMessageAt?.getTime() ?? null,
      reconnects24h: row.reconnects24h,
      latencyP50Ms: row.latencyP50Ms,
      latencyP99Ms: row.latencyP99Ms,
      latencySamples: row.latencySamples,
      pollIntervalMs: row.pollIntervalMs,
      series: series.data,
      updatedAt: row.updatedAt.getTime(),
    });
  }
  return feeds;
}

/** What is known of a venue apart from its feed: its last successful refresh, and the rounds' cadence. */
export interface FeedFallback {
  /** Epoch ms of the venue's last successful refresh (a polled answer); null before the first. */
  lastSuccessAt: number | null;
  /** How often whole rounds poll every venue. */
  roundIntervalMs: number;
}

/**
 * A venue's feed as served at `now`. Without a stored feed (no process has reported one, or test
 * keys) the venue is polled by the rounds, and its last message is its last successful refresh.
 * A polled venue's last refresh counts as a message when it is newer than the feed's.
 */
export function servedFeed(stored: StoredFeedStatus | undefined, fallback: FeedFallback, now: number): VenueFeed {
  const transport = stored?.transport ?? "poll";
  const lastMessage = Math.max(stored?.lastMessageAt ?? -Infinity, fallback.lastSuccessAt ?? -Infinity);
  const known = Number.isFinite(lastMessage);
  return {
    transport,
    transport_reason: stored?.transportReason ?? null,
    poll_interval_seconds: transport === "poll" ? (stored?.pollIntervalMs ?? fallback.roundIntervalMs) / 1000 : null,
    last_message_at: known ? new Date(lastMessage).toISOString() : null,
    last_message_age_seconds: known ? Math.max(0, now - lastMessage) / 1000 : null,
    latency_p50_ms: stored?.latencyP50Ms ?? null,
    latency_p99_ms: stored?.latencyP99Ms ?? null,
    latency_samples: stored?.latencySamples ?? 0,
    reconnects_24h: stored?.reconnects24h ?? 0,
    as_of: stored ? new Date(stored.updatedAt).toISOString() : null,
  };
}
