import type { Db } from "@/lib/db";
import { logger } from "@/lib/observability/logger";
import { recordIngestionRound } from "@/lib/observability/metrics";
import type { RoundOutcome } from "./run-ingestion-round";
import type { RoundLock } from "./round-lock";

export interface SchedulerOptions {
  db: Db;
  lock: RoundLock;
  intervalMs: number;
  runRound: () => Promise<RoundOutcome>;
  log?: (line: string) => void;
  /** Stops what runs beside the rounds (the live feeds), once no round runs any more. */
  onStop?: () => Promise<void>;
}

/**
 * Runs a round every `intervalMs`, never two at once: in this process a tick is skipped while one
 * runs; across processes the lock decides, and a process that gets the lock right after another
 * finished skips too, so N workers still make one round per interval rather than N.
 */
export class IngestionScheduler {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<RoundOutcome | null> | undefined;
  private stopped = false;

  constructor(private readonly options: SchedulerOptions) {}

  start(): void {
    this.stopped = false;
    this.schedule(0);
  }

  /** One attempt: the round's outcome, or null when the lock or the schedule said not now. */
  tick(): Promise<RoundOutcome | null> {
    if (this.running) return Promise.resolve(null);
    this.running = this.attempt().finally(() => (this.running = undefined));
    return this.running;
  }

  /**
   * Resolves once no round runs in this process (at once when none does): work run beside the rounds
   * (the history backfill, between two pages) waits on it, so its statements never queue among a
   * round's on the embedded database's one connection.
   */
  async roundFinished(): Promise<void> {
    await this.running?.catch(() => undefined);
  }

  /** Stops scheduling and waits for a round in progress, so SIGTERM never cuts one in half. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.running?.catch(() => undefined); // its failure is the tick's to log (schedule)
    await this.options.onStop?.().catch((error: unknown) => logger("ingest").error({ err: error }, "stopping the live feeds failed"));
    await this.options.lock.close();
  }

  private schedule(delayMs: number) {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      const started = Date.now();
      void this.tick()
        .catch((error: unknown) => logger("ingest").error({ err: error }, "ingestion tick failed"))
        .finally(() => this.schedule(Math.max(0, this.options.intervalMs - (Date.now() - started))));
    }, delayMs);
  }

  private async attempt(): Promise<RoundOutcome | null> {
    const { db, lock, intervalMs } = this.options;
    if (!(await lock.tryAcquire())) return null;
    try {
      const last = await db.ingestionRound.findFirst({ orderBy: { startedAt: "desc" }, select: { startedAt: true } });
      // Another process ran one moments ago: wait for the next interval instead of doubling up.
      if (last && Date.now() - last.startedAt.getTime() < intervalMs * 0.9) return null;
      const started = performance.now();
      const outcome = await this.options.runRound();
      recordIngestionRound(outcome.status, (performance.now() - started) / 1000, outcome.venues.flatMap((v) => (v.status === "ok" ? [] : [v.exchange])));
      const venues = outcome.venues.map((v) => `${v.exchange}:${v.status}`).join(" ");
      this.options.log?.(`ingestion round ${outcome.status}: ${outcome.opportunities} opportunities (${venues})`);
      return outcome;
    } finally {
      await lock.release();
    }
  }
}
