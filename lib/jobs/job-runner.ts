import type { Db } from "@/lib/db";
import { logger } from "@/lib/observability/logger";
import { claimJobs, LeaseLostError, rescheduleJob, type ClaimedJob } from "./job-queue";

/** How one queue's jobs are run. */
export interface QueueWorker {
  queue: string;
  /**
   * Does the job's work and finishes it with `completeJob` or `rescheduleJob`, in the same
   * transaction as what the work wrote, so a crash leaves both or neither. A handler that throws
   * is retried by the runner after a backoff, its error kept in `lastError`.
   */
  handle: (job: ClaimedJob) => Promise<void>;
  /** Jobs of this queue run at once in this process. */
  concurrency: number;
  /** How long a claim holds a job: longer than the handler can take, or the job could be run twice at once. */
  leaseMs: number;
}

export interface JobRunnerOptions {
  db: Db;
  workers: readonly QueueWorker[];
  /** How often the queues are polled when nothing woke the runner. */
  pollMs: number;
  now?: () => Date;
  /** Told of failures (the "jobs" logger by default: an error with its `err`, a warning without). */
  log?: (line: string, error?: unknown) => void;
}

function defaultLog(line: string, error?: unknown): void {
  const log = logger("jobs");
  if (error === undefined) log.warn(line);
  else log.error({ err: error }, line);
}

/** Wait before running a job whose handler threw, by how many times it was claimed: 1 s, 2 s, 4 s … at most an hour. */
export function failureBackoffMs(attempts: number): number {
  return Math.min(3_600_000, 1_000 * 2 ** Math.max(0, attempts - 1));
}

/**
 * Whether a queue with `free` of its `concurrency` slots free should claim more now that a job has
 * ended: once a quarter of its slots are free (at once with up to four slots). Claiming for every
 * job that ends would cost one claiming query per job under load (500 for a burst of 500
 * deliveries); claiming a quarter at a time costs a few, and the slots still busy keep the work going.
 * With nothing left running every slot is free, so an ended job always leads to a claim eventually;
 * the poll (pollMs) claims anything else.
 */
export function claimAfterJobEnds(free: number, concurrency: number): boolean {
  return free >= Math.max(1, Math.floor(concurrency / 4));
}

/**
 * Runs the jobs of its queues in this process: polls every `pollMs`, and at once when `wake()` is
 * called (after enqueueing in this process). Any number of runners, in any number of processes,
 * may share the queues: claims skip each other's rows (lib/jobs/job-queue.ts).
 */
export class JobRunner {
  private readonly inFlight = new Map<string, Set<Promise<void>>>();
  private timer: NodeJS.Timeout | undefined;
  private polling: Promise<void> | undefined;
  private again = false;
  private stopped = true;
  private readonly now: () => Date;
  private readonly log: (line: string, error?: unknown) => void;

  constructor(private readonly options: JobRunnerOptions) {
    this.now = options.now ?? (() => new Date());
    this.log = options.log ?? defaultLog;
    for (const worker of options.workers) this.inFlight.set(worker.queue, new Set());
  }

  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    this.timer = setInterval(() => this.wake(), this.options.pollMs);
    this.timer.unref();
    this.wake();
  }

  /** Looks for due jobs now (a poll already under way looks again when it ends). */
  wake(): void {
    if (this.stopped) return;
    if (this.polling) {
      this.again = true;
      return;
    }
    this.polling = this.poll()
      .catch((error: unknown) => this.log("claiming jobs failed", error))
      .finally(() => {
        this.polling = undefined;
        if (this.again) {
          this.again = false;
          this.wake();
        }
      });
  }

  /** Stops claiming and waits for the jobs under way to end. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    await this.polling;
    await Promise.all([...this.inFlight.values()].flatMap((set) => [...set]));
  }

  /** Resolves when nothing is running or being claimed (for tests and the benchmark). */
  async idle(): Promise<void> {
    while (this.polling || [...this.inFlight.values()].some((set) => set.size > 0)) {
      await Promise.all([this.polling, ...[...this.inFlight.values()].flatMap((set) => [...set])]);
    }
  }

  private async poll(): Promise<void> {
    for (const worker of this.options.workers) {
      const running = this.inFlight.get(worker.queue)!;
      const free = worker.concurrency - running.size;
      if (free <= 0 || this.stopped) continue;
      const jobs = await claimJobs(this.options.db, worker.queue, free, worker.leaseMs, this.now());
      for (const job of jobs) {
        const run = this.run(worker, job).finally(() => {
          running.delete(run);
          // Slots are free: more may be due.
          if (claimAfterJobEnds(worker.concurrency - running.size, worker.concurrency)) this.wake();
        });
        running.add(run);
      }
    }
  }

  private async run(worker: QueueWorker, job: ClaimedJob): Promise<void> {
    try {
      await worker.handle(job);
    } catch (error) {
      if (error instanceof LeaseLostError) {
        this.log(`job ${job.id} (${worker.queue}) outlived its lease; another runner has it`);
        return;
      }
      this.log(`job ${job.id} (${worker.queue}) failed`, error);
      const message = error instanceof Error ? error.message : String(error);
      const runAt = new Date(this.now().getTime() + failureBackoffMs(job.attempts));
      // Not rescheduled, the job runs again once its lease ends, a little sooner than the backoff says.
      await rescheduleJob(this.options.db, job, runAt, message.slice(0, 1_000)).catch((rescheduling: unknown) =>
        this.log(`job ${job.id} (${worker.queue}) could not be rescheduled; it runs again when its lease ends`, rescheduling),
      );
    }
  }
}
