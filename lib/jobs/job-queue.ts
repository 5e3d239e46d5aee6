import { randomUUID } from "node:crypto";
import type { Db } from "@/lib/db";
import type { Prisma } from "@/lib/db/generated/client";

/** A database handle or an open transaction on it: jobs are enqueued and finished inside the caller's transaction. */
export type JobDb = Pick<Db, "$queryRaw" | "$executeRaw" | "job">;

/** A job as a runner holds it: its row, and the token that proves the lease is still this runner's. */
export interface ClaimedJob {
  id: bigint;
  queue: string;
  payload: unknown;
  /** Claims so far, this one included. */
  attempts: number;
  /** Who holds the lease: finishing or rescheduling with another token changes nothing. */
  token: string;
  lockedUntil: Date;
}

/** Thrown when a job's lease was lost (it expired and another runner claimed the job): the work's transaction must roll back. */
export class LeaseLostError extends Error {
  constructor(readonly jobId: bigint) {
    super(`Job ${jobId} is no longer held by this runner (its lease expired)`);
    this.name = "LeaseLostError";
  }
}

/** Adds jobs to a queue, due at `runAt` (default now); inside a transaction they exist only if it commits. */
export async function enqueueJobs(db: JobDb, queue: string, payloads: readonly Prisma.InputJsonValue[], runAt?: Date): Promise<void> {
  if (payloads.length === 0) return;
  await db.job.createMany({ data: payloads.map((payload) => ({ queue, payload, ...(runAt && { runAt }) })) });
}

/**
 * Claims up to `limit` due jobs of `queue` for `leaseMs`: due means `runAt` has come and no lease
 * is in force (never claimed, released, or held by a runner that died and let it expire).
 * `FOR UPDATE SKIP LOCKED` makes concurrent claims (other runners, other processes) take
 * different rows without waiting on each other; the lease keeps the row from being claimed again
 * while this runner works on it outside any transaction.
 */
export async function claimJobs(db: JobDb, queue: string, limit: number, leaseMs: number, now: Date = new Date()): Promise<ClaimedJob[]> {
  const token = randomUUID();
  const lockedUntil = new Date(now.getTime() + leaseMs);
  const rows = await db.$queryRaw<{ id: bigint; queue: string; payload: unknown; attempts: number }[]>`
    UPDATE "Job" SET "lockedUntil" = ${lockedUntil}, "lockedBy" = ${token}, attempts = attempts + 1
    WHERE id IN (
      SELECT id FROM "Job"
      WHERE queue = ${queue} AND "runAt" <= ${now} AND ("lockedUntil" IS NULL OR "lockedUntil" <= ${now})
      ORDER BY "runAt", id
      LIMIT ${limit}
      FOR UPDATE SKIP LOCKED
    )
    RETURNING id, queue, payload, attempts`;
  return rows.map((row) => ({ ...row, token, lockedUntil })).sort((a, b) => (a.id < b.id ? -1 : 1));
}

/** Deletes a finished job, provided this runner still holds it; otherwise LeaseLostError. */
export async function completeJob(db: JobDb, job: ClaimedJob): Promise<void> {
  const count = await db.$executeRaw`DELETE FROM "Job" WHERE id = ${job.id} AND "lockedBy" = ${job.token}`;
  if (count === 0) throw new LeaseLostError(job.id);
}

/** Releases a job to run again at `runAt`, provided this runner still holds it; otherwise LeaseLostError. */
export async function rescheduleJob(db: JobDb, job: ClaimedJob, runAt: Date, lastError: string | null = null): Promise<void> {
  const count = await db.$executeRaw`
    UPDATE "Job" SET "runAt" = ${runAt}, "lockedUntil" = NULL, "lockedBy" = NULL, "lastError" = ${lastError}
    WHERE id = ${job.id} AND "lockedBy" = ${job.token}`;
  if (count === 0) throw new LeaseLostError(job.id);
}

/** A queue's jobs now: held by a runner, due to be claimed, or waiting for a later `runAt` (a retry). */
export interface QueueDepth {
  running: number;
  due: number;
  scheduled: number;
}

export async function queueDepth(db: JobDb, queue: string, now: Date = new Date()): Promise<QueueDepth> {
  const [row] = await db.$queryRaw<QueueDepth[]>`
    SELECT
      count(*) FILTER (WHERE "lockedUntil" > ${now})::int AS running,
      count(*) FILTER (WHERE ("lockedUntil" IS NULL OR "lockedUntil" <= ${now}) AND "runAt" <= ${now})::int AS due,
      count(*) FILTER (WHERE ("lockedUntil" IS NULL OR "lockedUntil" <= ${now}) AND "runAt" > ${now})::int AS scheduled
    FROM "Job" WHERE queue = ${queue}`;
  return row ?? { running: 0, due: 0, scheduled: 0 };
}
