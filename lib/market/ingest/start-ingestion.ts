import type { Db } from "@/lib/db";
import { logger } from "@/lib/observability/logger";
import type { DatabaseTarget } from "@/lib/db/open-database";
import { venueFetcher, type VenueFetcher } from "../venues/fetch-all-venues";
import type { IngestConfig } from "./ingest-config";
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
  const scheduler = new IngestionScheduler({
    db,
    lock,
    intervalMs: config.INGEST_INTERVAL_MS,
    log,
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
      }),
  });
  scheduler.start();
  return scheduler;
}
