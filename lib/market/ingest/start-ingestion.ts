import type { Db } from "@/lib/db";
import { logger } from "@/lib/observability/logger";
import { recordMicroBatch } from "@/lib/observability/metrics";
import { yieldSlicesTo } from "@/lib/time-slices";
import type { DatabaseTarget } from "@/lib/db/open-database";
import { venueFetcher, type VenueFetcher } from "../venues/fetch-all-venues";
import { reloadDueMarketLists } from "../venues/connectors/fetch-venue-snapshot";
import type { VenueId, VenueSnapshotResult } from "../model/types";
import { liveFeedsOn, overrideFetch, overrideStreamUrl, spotCredentials, type IngestConfig } from "./ingest-config";
import { carryRound, type PublishedCarry } from "./carry-round";
import { spotFetcher, type SpotFetcher } from "./spot-round";
import type { FeedStatusRecorder } from "./feed-status";
import type { LegUpdateSink } from "./leg-updates";
import { FeedStatusBoard } from "./feed-status-board";
import { FeedStatusWriter } from "./feed-status-writer";
import { LiveFeeds } from "./live-feeds";
import { StreamThread } from "./stream-thread";
import { MicroBatchPublisher, type PublishedBatch } from "./micro-batch-publisher";
import { STREAM_PROTOCOLS } from "../venues/streams/stream-protocols";
import type { OpenLiveStream } from "./live-stream";
import { venueBudgets } from "../venues/venue-budget";
import { pollCadenceMs } from "../venues/venue-request-limits";
import type { VenueStreamProtocol } from "../venues/streams/stream-protocol";
import { PairPersistenceStore } from "../persistence/pair-persistence-store";
import { IngestionScheduler } from "./ingestion-scheduler";
import { publishSampleIfNeverLive } from "./publish-sample-market";
import { advisoryRoundLock, inProcessRoundLock } from "./round-lock";
import { ColumnSlabs } from "../opportunities/opportunity-columns";
import type { AppliedRound } from "../opportunities/live-opportunities";
import type { RoundEvents } from "./round-events";
import { RoundMemory } from "./round-memory";
import { runIngestionRound, type IngestionRoundOptions } from "./run-ingestion-round";

export interface StartIngestionOptions {
  db: Db;
  target: DatabaseTarget;
  config: IngestConfig;
  /** This process's in-memory opportunity set, if it serves one: told each round's set (the sample's publish: nothing, it reloads). */
  onPublished?: (round?: AppliedRound) => void | Promise<void>;
  fetcher?: VenueFetcher;
  /**
   * Whether `fetcher` asks the real venues (the worker's venue thread does); an injected fetcher is
   * otherwise taken to replay recorded answers, and the live feeds stay off (ingest-config.ts liveFeedsOn).
   */
  fetcherReachesVenues?: boolean;
  /**
   * Where the live feeds push changed legs. Unset: this process's micro-batch publisher, which
   * publishes them about once a `PUBLISH_BATCH_MS` and is held back by the rounds.
   */
  legSink?: LegUpdateSink;
  /** Told each micro-batch this process commits: its in-memory set applies it. */
  onBatch?: (batch: PublishedBatch) => void;
  /**
   * What the live feeds report about themselves. Unset: a FeedStatusBoard stored every few seconds
   * (VenueFeedStatus) for every server's /v1/exchanges and /status.
   */
  feedStatus?: FeedStatusRecorder;
  /** The venues' stream protocols (unset: STREAM_PROTOCOLS); a venue without one is polled at its cadence between rounds. */
  streamProtocols?: Partial<Record<VenueId, VenueStreamProtocol>>;
  /** Opens a venue's stream (unset: in the stream thread, stream-thread.ts). */
  openStream?: OpenLiveStream;
  log?: (line: string) => void;
  /** The change-event log's writer (lib/events' LiveRoundEvents): rounds append their events through it. */
  events: RoundEvents;
  /**
   * The spot venues' fetch. Unset: the network's, with the configured read-only keys, where the
   * rounds reach the venues and INGEST_SPOT is `on`; none where they replay recordings.
   */
  spotFetcher?: SpotFetcher;
  /** Told each carry set this process's rounds publish (its Market serves it as it is). */
  onCarryPublished?: (carry: PublishedCarry) => void;
  /**
   * Ranks each round on another thread (VenueThread.ranker) while the live feeds are on, so the
   * micro-batches publishing news on this thread meanwhile never wait behind it. Without the
   * feeds the round ranks here: handing the markets over and the set back costs the round ~0.3 s
   * more at 46 venues × 600 assets, and nothing else would use the time.
   */
  ranker?: IngestionRoundOptions["ranker"];
  /**
   * Without the live feeds, writes half of each round's ranked rows on another thread
   * (VenueThread.rowWriter), idle while the round ranks; the columns' memory is shared for it.
   */
  rowWriter?: IngestionRoundOptions["rowWriter"];
  /**
   * Reloads the due market lists after each round (IngestionRoundOptions.reloadMarketLists); unset,
   * this thread's (reloadDueMarketLists). A process fetching on a VenueThread passes its
   * `reloadMarketLists`, which adds the thread's.
   */
  reloadMarketLists?: IngestionRoundOptions["reloadMarketLists"];
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
  const feeds = liveFeeds(options, fetcher);
  // With the feeds this thread publishes micro-batches while the round ranks, and may not block.
  const rowWriter = feeds ? undefined : options.rowWriter;
  const slabs = new ColumnSlabs(1, rowWriter !== undefined);
  const spot = spotFetcherOf(options);
  if (spot) log("Spot venues on: every round fetches their spot legs and borrow rates");
  if (feeds) log(`Live feeds on: ${Object.keys(feeds.protocols).length} venues stream, the others are polled at their cadence between rounds`);
  const scheduler = new IngestionScheduler({
    db,
    lock,
    intervalMs: config.INGEST_INTERVAL_MS,
    log,
    onStop: () => feeds?.close() ?? Promise.resolve(),
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
        batches: feeds?.publisher,
        priceBound: config.PAIR_PRICE_BOUND,
        onRound: feeds ? (results) => handOver(feeds, results) : undefined,
        spotFetcher: spot,
        ranker: feeds && options.ranker,
        rowWriter,
        reloadMarketLists: options.reloadMarketLists ?? (() => reloadDueMarketLists()),
        onSpotLegs: carryRound({ db, events, persistence, priceBound: config.PAIR_PRICE_BOUND, onPublished: options.onCarryPublished }),
      }),
  });
  scheduler.start();
  return scheduler;
}

/** The rounds' spot fetch: none unless INGEST_SPOT=on; then the caller's, or the network's where the rounds reach the venues. */
function spotFetcherOf(options: StartIngestionOptions): SpotFetcher | undefined {
  if (options.config.INGEST_SPOT !== "on") return undefined;
  if (options.spotFetcher) return options.spotFetcher;
  const reachesVenues = options.fetcherReachesVenues ?? options.fetcher === undefined;
  return reachesVenues ? spotFetcher({ credentials: spotCredentials(options.config) }) : undefined;
}

/**
 * The round is published whatever the feeds make of it: their failure is logged, never the round's.
 * The board learns each venue's poll cadence at the round's market count (a venue polled a request
 * a market is polled less often with more markets), so /v1/exchanges states the cadence it is polled at.
 */
function handOver({ feeds, board }: { feeds: LiveFeeds; board?: FeedStatusBoard }, results: readonly VenueSnapshotResult[]) {
  try {
    feeds.onRound(results);
    for (const result of results) if (result.status === "ok") board?.pollInterval(result.exchange, pollCadenceMs(result.exchange, result.snapshots.length));
  } catch (error) {
    logger("ingest").error({ err: error }, "handing the round to the live feeds failed");
  }
}

/**
 * The live feeds when they are on (liveFeedsOn), with what they feed unless the caller gives its
 * own: the micro-batch publisher their changed legs go to, and the status board they report to,
 * stored for the other servers.
 */
function liveFeeds(options: StartIngestionOptions, fetcher: VenueFetcher) {
  const { config, db } = options;
  if (!liveFeedsOn(config, { reachesVenues: options.fetcherReachesVenues ?? options.fetcher === undefined })) return undefined;
  const override = config.VENUE_STREAM_URL_OVERRIDE;
  const protocols = options.streamProtocols ?? STREAM_PROTOCOLS;
  const board = options.feedStatus ? undefined : new FeedStatusBoard();
  const status = options.feedStatus ?? board!;
  const writer = board && new FeedStatusWriter(board, async () => db);
  const publisher = options.legSink
    ? undefined
    : new MicroBatchPublisher({
        db,
        periodMs: config.PUBLISH_BATCH_MS,
        prices: { moveBps: config.PUBLISH_PRICE_MOVE_BPS, refreshMs: config.PUBLISH_PRICE_REFRESH_MS },
        events: options.events,
        feedStatus: status,
        onPublished: options.onBatch,
        onTimings: recordMicroBatch,
      });
  // Every venue's sockets, decoding and conflation run in one thread of their own: the serving
  // thread gets only what it would publish (docs/decisions, "stream thread").
  const thread = options.openStream
    ? undefined
    : new StreamThread({ override, conflation: { moveBps: config.PUBLISH_PRICE_MOVE_BPS, refreshMs: config.PUBLISH_PRICE_REFRESH_MS } });
  const feeds = new LiveFeeds({
    protocols,
    sink: options.legSink ?? publisher!,
    status,
    fetcher,
    openStream: options.openStream ?? thread!.open,
    cadenceMs: pollCadenceMs,
    pollTimeoutMs: config.INGEST_VENUE_TIMEOUT_MS,
    resolveUrl: override ? (url) => overrideStreamUrl(override, url) : undefined,
    fetch: override ? overrideFetch(override) : undefined,
    takeToken: (venue) => venueBudgets().take(venue, "live"),
  });
  writer?.start();
  // News first: a round's ranking and event diff wait at their pauses for the batch in flight.
  const stopYielding = publisher && yieldSlicesTo(() => publisher.batchInFlight);
  const close = async () => {
    stopYielding?.();
    await feeds.close();
    await thread?.close();
    await publisher?.stop();
    await writer?.stop();
  };
  return { feeds, board, protocols, publisher, close };
}
