import { spawn } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import type { OpenDatabase } from "@/lib/db/open-database";
import { closeAbandonedRounds } from "@/lib/market/ingest/aggregate-rounds";
import { IngestionScheduler } from "@/lib/market/ingest/ingestion-scheduler";
import { advisoryRoundLock, inProcessRoundLock, type RoundLock } from "@/lib/market/ingest/round-lock";
import { runIngestionRound } from "@/lib/market/ingest/run-ingestion-round";
import { loadItems } from "@/lib/market/opportunities/store";
import { makeSnapshot } from "@/tests/support/market/make-snapshot";
import { liveOpportunity, seedLiveOpportunities } from "@/tests/support/api-fixtures";
import { blockedAfterWritingTheSet, holdingTheSet } from "@/tests/support/publish-locks";
import { createServerDatabase } from "@/tests/support/server-database";
import { createTestDatabase } from "@/tests/support/test-database";
import { snapshotFetcher } from "./helpers/venue-fetchers";

const HERE = path.dirname(fileURLToPath(import.meta.url));
const opened: OpenDatabase[] = [];
afterAll(async () => {
  for (const d of opened) await d.close();
});

function scheduler(database: OpenDatabase, lock: RoundLock, fetchDelayMs: number) {
  const fetcher = snapshotFetcher(
    (venue) => (venue === "binance" || venue === "okx" ? [makeSnapshot({ exchange: venue, observedAt: Date.now() })] : []),
    fetchDelayMs,
  );
  return new IngestionScheduler({
    db: database.db,
    lock,
    intervalMs: 60_000,
    runRound: () => runIngestionRound({ db: database.db, fetcher, timeoutMs: 5_000, retention: { rawDays: 7, hourlyDays: 730 } }),
  });
}

describe("the ingestion scheduler", () => {
  it("runs one round per interval: a tick during a round, or right after one, does nothing", async () => {
    const database = await createTestDatabase();
    opened.push(database);
    const s = scheduler(database, inProcessRoundLock(), 200);
    const [first, overlapping] = await Promise.all([s.tick(), s.tick()]);
    expect(first?.status).toBe("published");
    expect(overlapping).toBeNull();
    expect(await s.tick()).toBeNull(); // the last round started less than an interval ago
    expect(await database.db.ingestionRound.count()).toBe(1);
    await s.stop();
  }, 60_000);

  it("waits for the round in progress when stopped", async () => {
    const database = await createTestDatabase();
    opened.push(database);
    const s = scheduler(database, inProcessRoundLock(), 300);
    const running = s.tick();
    await new Promise((r) => setTimeout(r, 50));
    await s.stop();
    expect((await running)?.status).toBe("published");
    expect((await database.db.ingestionRound.findFirstOrThrow()).status).toBe("published");
  }, 60_000);

  // Two workers on one PostgreSQL database: the advisory lock gives the round to exactly one.
  it.runIf(process.env.DATABASE_URL)("lets only one of two workers on PostgreSQL run a round (advisory lock)", async () => {
    const database = await createServerDatabase(process.env.DATABASE_URL!);
    opened.push(database);
    const a = scheduler(database, advisoryRoundLock(database.url), 500);
    const b = scheduler(database, advisoryRoundLock(database.url), 500);
    const outcomes = await Promise.all([a.tick(), b.tick()]);
    expect(outcomes.filter((o) => o !== null)).toHaveLength(1);
    expect(await database.db.ingestionRound.count()).toBe(1);
    // Released after the round: the other worker can take the lock, and the schedule stops it.
    expect(await b.tick()).toBeNull();
    expect(await database.db.ingestionRound.count()).toBe(1);
    await Promise.all([a.stop(), b.stop()]);
  }, 60_000);
});

describe("a round killed mid-way", () => {
  // A real kill needs a second process on the same database, hence PostgreSQL only.
  it.runIf(process.env.DATABASE_URL)("leaves the previous opportunity set intact when its process dies while publishing", async () => {
    const database = await createServerDatabase(process.env.DATABASE_URL!);
    opened.push(database);
    await seedLiveOpportunities(database.db, [liveOpportunity("BTC", 12.5), liveOpportunity("ETH", 30, "okx", "gate")]);
    const liveIds = async () =>
      (await loadItems(database.db)).map((o) => o.id);
    const before = await liveIds();

    // The watcher takes the round's row once the round has stored its observations (their one
    // transaction committed), so the child's publishing transaction, having written the new set,
    // waits there to mark the round published: it is killed inside that transaction, not merely
    // somewhere near it.
    const watcher = new pg.Client({ connectionString: database.url });
    await watcher.connect();
    const child = spawn(process.execPath, ["--import", "tsx", path.join(HERE, "helpers/round-process.ts"), database.url], {
      cwd: path.resolve(HERE, "../.."),
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
    const exited = new Promise((resolve) => child.once("exit", resolve));
    const deadline = Date.now() + 60_000;
    const waitFor = async (condition: () => Promise<boolean>, what: string) => {
      while (!(await condition())) {
        if (Date.now() > deadline || output.includes("done")) throw new Error(`never saw ${what}:\n${output}`);
        await new Promise((r) => setTimeout(r, 2));
      }
    };
    try {
      let roundId: string | undefined;
      await waitFor(async () => {
        const { rows } = await watcher.query(
          `SELECT id FROM "IngestionRound" r WHERE status = 'running' AND EXISTS (SELECT 1 FROM "RoundSnapshot" s WHERE s."roundId" = r.id)`,
        );
        roundId = rows[0]?.id;
        return roundId !== undefined;
      }, "the round stored");
      await watcher.query("BEGIN");
      // NOWAIT: had the child already reached the row, this would wait for it to commit instead.
      await watcher.query(`SELECT id FROM "IngestionRound" WHERE id = $1 FOR UPDATE NOWAIT`, [roundId]);
      await waitFor(() => blockedAfterWritingTheSet(watcher), "the round publishing");
      child.kill("SIGKILL");
      await exited;
      await watcher.query("ROLLBACK");
      // The child's backend aborts its transaction once it finds the connection gone.
      while (await holdingTheSet(watcher)) await new Promise((r) => setTimeout(r, 20));
    } finally {
      child.kill("SIGKILL");
      await watcher.end();
    }

    expect(await liveIds()).toEqual(before);
    expect((await database.db.opportunitySet.findUniqueOrThrow({ where: { id: "live" } })).version).toBe(1);
    const round = await database.db.ingestionRound.findFirstOrThrow();
    expect(round.status).toBe("running");
    // Its observations were stored whole before publishing began; the next round closes it.
    expect(await database.db.roundSnapshot.count({ where: { roundId: round.id } })).toBe(600 * 6);
    expect(await closeAbandonedRounds(database.db, new Date(Date.now() + 11 * 60_000))).toBe(1);
  }, 120_000);
});
