import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { Db } from "@/lib/db";
import type { OpenDatabase } from "@/lib/db/open-database";
import { claimJobs, completeJob, enqueueJobs, LeaseLostError, rescheduleJob } from "@/lib/jobs/job-queue";
import { JobRunner } from "@/lib/jobs/job-runner";
import { createTestDatabase } from "@/tests/support/test-database";

// The durable job queue (lib/jobs/) on a real database: claims skip each other's rows, a lease
// keeps a claimed job from a second runner until it expires, and only the lease's holder finishes it.

let database: OpenDatabase;
let db: Db;
const LEASE = 30_000;

beforeAll(async () => {
  database = await createTestDatabase();
  db = database.db;
});
afterAll(() => database?.close());
beforeEach(async () => {
  await db.job.deleteMany();
});

describe("the job queue", () => {
  it("gives concurrent claims different jobs, oldest due first, and nothing not yet due", async () => {
    const now = new Date();
    await enqueueJobs(db, "q", [{ n: 1 }, { n: 2 }, { n: 3 }, { n: 4 }], new Date(now.getTime() - 1_000));
    await enqueueJobs(db, "q", [{ n: 5 }], new Date(now.getTime() + 60_000));
    await enqueueJobs(db, "other", [{ n: 6 }], new Date(now.getTime() - 1_000));
    const [a, b, c] = await Promise.all([claimJobs(db, "q", 2, LEASE, now), claimJobs(db, "q", 2, LEASE, now), claimJobs(db, "q", 2, LEASE, now)]);
    const claimed = [...a!, ...b!, ...c!].map((job) => (job.payload as { n: number }).n).sort();
    expect(claimed).toEqual([1, 2, 3, 4]);
    for (const job of [...a!, ...b!, ...c!]) expect(job.attempts).toBe(1);
  });

  it("claims a job again only once its lease expired, and only the new holder finishes it", async () => {
    const t0 = new Date();
    await enqueueJobs(db, "q", [{ n: 1 }], t0);
    const [first] = await claimJobs(db, "q", 5, LEASE, t0);
    expect(first).toBeDefined();
    expect(await claimJobs(db, "q", 5, LEASE, new Date(t0.getTime() + LEASE - 1))).toEqual([]);
    // The first runner died: after its lease, another claims the job.
    const [second] = await claimJobs(db, "q", 5, LEASE, new Date(t0.getTime() + LEASE));
    expect(second?.id).toBe(first!.id);
    expect(second?.attempts).toBe(2);
    await expect(completeJob(db, first!)).rejects.toBeInstanceOf(LeaseLostError);
    await expect(rescheduleJob(db, first!, new Date())).rejects.toBeInstanceOf(LeaseLostError);
    await completeJob(db, second!);
    expect(await db.job.count()).toBe(0);
  });

  it("releases a rescheduled job until its new time, keeping the error", async () => {
    const t0 = new Date();
    await enqueueJobs(db, "q", [{ n: 1 }], t0);
    const [job] = await claimJobs(db, "q", 1, LEASE, t0);
    const later = new Date(t0.getTime() + 5_000);
    await rescheduleJob(db, job!, later, "HTTP 500");
    expect(await db.job.findFirstOrThrow()).toMatchObject({ lockedBy: null, lockedUntil: null, lastError: "HTTP 500", runAt: later });
    expect(await claimJobs(db, "q", 1, LEASE, new Date(later.getTime() - 1))).toEqual([]);
    expect(await claimJobs(db, "q", 1, LEASE, later)).toHaveLength(1);
  });

  it("keeps no job enqueued in a transaction that rolled back", async () => {
    await expect(
      db.$transaction(async (tx) => {
        await enqueueJobs(tx, "q", [{ n: 1 }]);
        throw new Error("rolled back");
      }),
    ).rejects.toThrow("rolled back");
    expect(await db.job.count()).toBe(0);
  });
});

describe("the job runner", () => {
  it("runs due jobs through their handler, and retries a handler that threw after a backoff with its error", async () => {
    const now = new Date();
    await enqueueJobs(db, "ok", [{ n: 1 }, { n: 2 }], now);
    await enqueueJobs(db, "broken", [{ n: 3 }], now);
    const seen: number[] = [];
    const runner = new JobRunner({
      db,
      pollMs: 60_000,
      now: () => now,
      log: () => undefined,
      workers: [
        {
          queue: "ok",
          concurrency: 4,
          leaseMs: LEASE,
          handle: async (job) => {
            seen.push((job.payload as { n: number }).n);
            await completeJob(db, job);
          },
        },
        { queue: "broken", concurrency: 1, leaseMs: LEASE, handle: async () => Promise.reject(new Error("the receiver's database is down")) },
      ],
    });
    runner.start();
    await runner.idle();
    await runner.stop();
    expect(seen.sort()).toEqual([1, 2]);
    const left = await db.job.findMany();
    expect(left).toHaveLength(1);
    expect(left[0]).toMatchObject({ queue: "broken", attempts: 1, lastError: "the receiver's database is down", lockedBy: null });
    expect(left[0]!.runAt.getTime()).toBe(now.getTime() + 1_000);
  });
});
