import type { Db } from "@/lib/db";
import { directSql } from "@/lib/db/direct-sql";
import { completeJob, rescheduleJob, type ClaimedJob } from "@/lib/jobs/job-queue";
import { JobRunner, type QueueWorker } from "@/lib/jobs/job-runner";
import { logger } from "@/lib/observability/logger";
import type { HistoryIo, VenueHistoryReader } from "../history-types";
import { FORWARD_AFTER_MS } from "./backfill-cursor";
import type { BackfillConfig } from "./backfill-config";
import { latestVenueMarkets, nextDueAt, seedCursors } from "./backfill-store";
import { backfillVenue } from "./backfill-venue";
import { httpHistoryIo } from "./history-http";
import { backfillBudget } from "./request-budget";
import { retryDelayMs } from "./retry-backoff";

export const BACKFILL_QUEUE = "history-backfill";
const DAY = 24 * 3_600_000;
const NO_MARKETS_YET_MS = 60_000;

export interface BackfillJobsOptions {
  db: Db;
  config: BackfillConfig;
  /** The venues to backfill, and each one's history reader (undefined: it serves none). */
  venues: readonly string[];
  readerFor: (exchange: string) => VenueHistoryReader | undefined;
  /** The network of a venue's reader; by default HTTP drawing on the venue's budget. */
  ioFor?: (reader: VenueHistoryReader) => HistoryIo;
  /** How long one job works on its venue before giving the slot to another venue's. */
  sliceMs?: number;
  now?: () => number;
  signal?: AbortSignal;
  pause?: () => Promise<void>;
}

/** The venues with a reader, each the one job of the queue it should have. */
export function backfillVenues(options: Pick<BackfillJobsOptions, "venues" | "readerFor">): VenueHistoryReader[] {
  return options.venues.map((venue) => options.readerFor(venue)).filter((reader): reader is VenueHistoryReader => reader !== undefined);
}

/**
 * One job per venue, added where missing. The job is the venue's turn: whoever holds its lease walks
 * its markets, so in any number of processes one walk at a time draws on the venue's budget.
 */
export async function ensureBackfillJobs(db: Db, exchanges: readonly string[]): Promise<void> {
  if (exchanges.length === 0) return;
  await directSql(db).query({
    text: `
    INSERT INTO "Job" (queue, payload)
    SELECT $1, jsonb_build_object('exchange', e) FROM unnest($2::text[]) AS e
    WHERE NOT EXISTS (SELECT 1 FROM "Job" j WHERE j.queue = $1 AND j.payload->>'exchange' = e)`,
    values: [BACKFILL_QUEUE, exchanges],
  });
}

/** Whether an older job of the same venue exists: two processes starting at once may both have added one. */
async function isDuplicate(db: Db, job: ClaimedJob, exchange: string): Promise<boolean> {
  const [row] = await directSql(db).query<{ n: number }>({
    text: `SELECT count(*)::int AS n FROM "Job" WHERE queue = $1 AND payload->>'exchange' = $2 AND id < $3::bigint`,
    values: [BACKFILL_QUEUE, exchange, job.id.toString()],
  });
  return (row?.n ?? 0) > 0;
}

/**
 * The queue's worker: a job walks its venue's markets for a slice, then hands the slot on, due
 * again at once if work is left, 15-30 s later after a failure, when the first retry is due, or a
 * day later to catch up forward.
 */
export function backfillWorker(options: BackfillJobsOptions): QueueWorker {
  const now = options.now ?? Date.now;
  const sliceMs = options.sliceMs ?? 60_000;
  const ioFor = options.ioFor ?? ((reader: VenueHistoryReader) => httpHistoryIo({ budget: backfillBudget(reader.exchange, reader.limits.requestsPerSecond), marketGone: reader.marketGone?.bind(reader) }));
  return {
    queue: BACKFILL_QUEUE,
    concurrency: 4,
    // Longer than a slice plus a page's wait for its budget and its answer.
    leaseMs: sliceMs + 5 * 60_000,
    handle: async (job) => {
      const exchange = (job.payload as { exchange?: unknown }).exchange;
      const reader = typeof exchange === "string" ? options.readerFor(exchange) : undefined;
      if (!reader || (await isDuplicate(options.db, job, reader.exchange))) {
        await completeJob(options.db, job);
        return;
      }
      const started = now();
      const markets = await latestVenueMarkets(options.db, reader.exchange);
      if (markets.length === 0) {
        // No round has listed the venue's markets yet (a fresh install): look again after the first rounds.
        await rescheduleJob(options.db, job, new Date(started + NO_MARKETS_YET_MS));
        return;
      }
      await seedCursors(options.db, markets, started);
      const run = await backfillVenue({
        db: options.db,
        reader,
        io: ioFor(reader),
        since: started - options.config.BACKFILL_DAYS * DAY,
        now,
        deadline: started + sliceMs,
        signal: options.signal,
        pause: options.pause,
      });
      // A failure pauses the venue briefly, whatever else is due: a venue that is down costs a request per pause, not one per market.
      const due = run.failed
        ? now() + retryDelayMs(1)
        : run.interrupted
          ? now()
          : ((await nextDueAt(options.db, reader.exchange)) ?? now() + FORWARD_AFTER_MS);
      await rescheduleJob(options.db, job, new Date(Math.max(due, now())));
    },
  };
}

/**
 * The backfill as jobs in this process (the worker, or the embedded server that owns ingestion):
 * null when BACKFILL_DISABLED. It runs beside the live rounds, never in them: a page at a time,
 * letting other work run between pages, drawing on each venue's budget only above the live reserve.
 */
export async function startBackfill(options: Omit<BackfillJobsOptions, "signal">): Promise<{ stop(): Promise<void> } | null> {
  if (options.config.BACKFILL_DISABLED) return null;
  const readers = backfillVenues(options);
  await ensureBackfillJobs(options.db, readers.map((reader) => reader.exchange));
  const abort = new AbortController();
  const runner = new JobRunner({ db: options.db, workers: [backfillWorker({ ...options, signal: abort.signal })], pollMs: 5_000 });
  runner.start();
  logger("backfill").info(`Funding-history backfill running for ${readers.length} venues, ${options.config.BACKFILL_DAYS} days deep`);
  return {
    stop: async () => {
      abort.abort();
      await runner.stop();
    },
  };
}
