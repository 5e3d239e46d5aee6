import type { Db } from "@/lib/db";
import { logger } from "@/lib/observability/logger";
import type { DatabaseTarget } from "@/lib/db/open-database";
import { venueFetcher, type VenueFetcher } from "../venues/fetch-all-venues";
import type { VenueId, VenueSnapshotResult } from "../model/types";
import { liveFeedsOn, overrideFetch, overrideStreamUrl, type IngestConfig } from "./ingest-config";
import type { FeedStatusRecorder } from "./feed-status";
import type { LegUpdateSink } from "./leg-updates";
import { LiveFeeds, loggingLegSink, noFeedStatus } from "./live-feeds";
import type { OpenLiveStream } from "./live-stream";
import { venueBudgets } from "../venues/venue-budget";
import { pollCadenceMs } from "../venues/venue-request-limits";
import type { VenueStreamProtocol } from "../venues/streams/stream-protocol";
import { PairPersistenceStore } from "../persistence/pair-persistence-store";
import { IngestionScheduler } from "./ingestion-scheduler";
import { publishSampleIfNeverLive } from "./publish-sample-market";
import { advisoryRoundLock, inProcessRoundLock } from "./round-lock";
import { ColumnSlabs } from "../opportunities/opportunity-columns";
import type { RoundEvents } from "./round-events";
import { RoundMemory } from "./round-memory";
import { runIngestionRound } from "./run-ingestion-round";

export interface StartIngestionOptions {
  db: Db;
  target: DatabaseTarget;
  config: IngestConfig;
  /** This process's in-memory opportunity set, if it serves one, reloads on each publish. */
  onPublished?: () => void;
  fetcher?: VenueFetcher;
  /**
   * Whether `fetcher` asks the real venues (the worker's venue thread does); an injected fetcher is
   * otherwise taken to replay recorded answers, and the live feeds stay off (ingest-config.ts liveFeedsOn).
   */
  fetcherReachesVenues?: boolean;
  /** Where the live feeds push changed legs (the micro-batch publisher); without one they are only logged at debug. */
  legSink?: LegUpdateSink;
  /** What the live feeds report about themselves (the feed status board); without one nothing is kept. */
  feedStatus?: FeedStatusRecorder;
  /** The venues' stream protocols; a venue without one is polled at its cadence between rounds. */
  streamProtocols?: Partial<Record<VenueId, VenueStreamProtocol>>;
  /** Opens a venue's stream (StreamConnection); without it every venue is polled at its cadence. */
  openStream?: OpenLiveStream;
  log?: (line: string) => void;
  /** The change-event log's writer (lib/events' LiveRoundEvents): rounds append their events through it. */
  events: RoundEvents;
}

/**
 * What a server (embedded mode) or `npm run worker` runs: the offline sample when nothing was ever
 * published, then a round every INGEST_INTERVAL_MS. PostgreSQL deployments coordinate through an
 * advisory lock; embedded PGlite is one process, so an in-process lock is enough.
 */
export async function startIngestion(options: StartIngestionOptions): Promise<IngestionScheduler> {
  const { db, config, onPublished, events } = options;
  const log = options.log ?? ((line: string) => logger("ingest").info(line));
  const sample = await publishSampleIfNeverLive(db, onPublished).catch((error: unknown) => {
    logger("ingest").error({ err: error }, "loading the offline sample failed");
    return null;
  });
  if (sample !== null) log(`No live round yet: published the bundled sample (${sample} opportunities, sample: true)`);
  const lock = options.target.driver === "postgres" ? advisoryRoundLock(options.target.url) : inProcessRoundLock();
  const fetcher = options.fetcher ?? venueFetcher();
  const persistence = new PairPersistenceStore(db);
  const memory = new RoundMemory();
  const slabs = new ColumnSlabs();
  const feeds = liveFeeds(options, fetcher);
  if (feeds) log(`Live feeds on: ${Object.keys(feeds.protocols).length} venues stream, the others are polled at their cadence between rounds`);
  const scheduler = new IngestionScheduler({
    db,
    lock,
    intervalMs: config.INGEST_INTERVAL_MS,
    log,
    onStop: () => feeds?.feeds.close() ?? Promise.resolve(),
    runRound: () =>
      runIngestionRound({
        db,
        fetcher,
        timeoutMs: config.INGEST_VENUE_TIMEOUT_MS,
        retention: {
          rawDays: config.MARKET_RAW_RETENTION_DAYS,
          hourlyDays: config.MARKET_HOURLY_RETENTION_DAYS,
          settlementDays: config.SETTLEMENT_RETENTION_DAYS,
        },
        onPublished,
        persistence,
        events,
        memory,
        slabs,
        onRound: feeds ? (results) => handOver(feeds.feeds, results) : undefined,
      }),
  });
  scheduler.start();
  return scheduler;
}

/** The round is published whatever the feeds make of it: their failure is logged, never the round's. */
function handOver(feeds: LiveFeeds, results: readonly VenueSnapshotResult[]) {
  try {
    feeds.onRound(results);
  } catch (error) {
    logger("ingest").error({ err: error }, "handing the round to the live feeds failed");
  }
}

/** The live feeds when they are on (liveFeedsOn), with the venues that have both a protocol and a way to open it. */
function liveFeeds(options: StartIngestionOptions, fetcher: VenueFetcher) {
  const { config } = options;
  if (!liveFeedsOn(config, { reachesVenues: options.fetcherReachesVenues ?? options.fetcher === undefined })) return undefined;
  const override = config.VENUE_STREAM_URL_OVERRIDE;
  const protocols = options.openStream ? (options.streamProtocols ?? {}) : {};
  const feeds = new LiveFeeds({
    protocols,
    sink: options.legSink ?? loggingLegSink(),
    status: options.feedStatus ?? noFeedStatus,
    fetcher,
    // Without an opener no venue has a protocol here, so this is never called.
    openStream: options.openStream ?? (() => {
      throw new Error("startIngestion was given stream protocols but no openStream");
    }),
    cadenceMs: pollCadenceMs,
    pollTimeoutMs: config.INGEST_VENUE_TIMEOUT_MS,
    resolveUrl: override ? (url) => overrideStreamUrl(override, url) : undefined,
    fetch: override ? overrideFetch(override) : undefined,
    takeToken: (venue) => venueBudgets().take(venue, "live"),
  });
  return { feeds, protocols };
}
