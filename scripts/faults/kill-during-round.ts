// Scenario a: a worker SIGKILLed during an ingestion round, once while fetching and once inside its
// publishing transaction (after it wrote the new set, before it committed), leaves the previous
// opportunity set served by the server, and the next worker's round publishes.
import type { ChildProcess } from "node:child_process";
import path from "node:path";
import pg from "pg";
import { loadItems } from "@/lib/market/opportunities/store";
import { exited, startChild, stopChild } from "@/scripts/bench/processes";
import { createServerDatabase, request, ROOT, seedKey, seedOpportunities, sleep, startServer, waitUntil, type FaultEnv } from "./harness";
import { Report } from "./report";
import { blockedAfterWritingTheSet, holdingTheSet } from "@/tests/support/publish-locks";

const INTERVAL_MS = 3_000;

function startWorker(databaseUrl: string, publishDelayMs: number): { child: ChildProcess; output: () => string } {
  let output = "";
  const child = startChild(process.execPath, ["--import", "tsx", path.join(ROOT, "scripts/faults/replay-worker.ts")], {
    cwd: ROOT,
    env: {
      ...process.env,
      DATABASE_URL: databaseUrl,
      INGEST_INTERVAL_MS: String(INTERVAL_MS),
      INGEST_VENUE_TIMEOUT_MS: "10000",
      FAULT_PUBLISH_DELAY_MS: String(publishDelayMs),
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  child.stdout!.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on("data", (chunk: Buffer) => (output += chunk.toString()));
  return { child, output: () => output };
}

async function kill(child: ChildProcess) {
  child.kill("SIGKILL");
  await exited(child);
}

export async function killDuringRound(env: FaultEnv): Promise<Report> {
  const report = new Report("a. SIGKILL during an ingestion round");
  const database = await createServerDatabase(env.databaseUrl);
  const watcher = new pg.Client({ connectionString: database.url });
  await watcher.connect();
  let server: Awaited<ReturnType<typeof startServer>> | undefined;
  const workers: ChildProcess[] = [];
  try {
    const previous = await seedOpportunities(database.db, 60);
    const { secret } = await seedKey(database.db, "pro");
    server = await startServer({ databaseUrl: database.url });
    const served = async () => {
      const answer = await request(`${server!.url}/v1/opportunities?limit=100`, { headers: { authorization: `Bearer ${secret}` } });
      const data = answer.json as { data?: { items?: { id: string }[] }; meta?: { sample?: boolean } } | undefined;
      return { status: answer.status, ids: (data?.data?.items ?? []).map((o) => o.id).sort(), sample: data?.meta?.sample };
    };
    const previousIds = previous.map((o) => o.id).sort();
    const setVersion = async () => (await database.db.opportunitySet.findUniqueOrThrow({ where: { id: "live" } })).version;
    const storedIds = async () => (await loadItems(database.db)).map((o) => o.id).sort();
    const before = await served();
    report.check("the server serves the seeded set before any round", before.status === 200 && JSON.stringify(before.ids) === JSON.stringify(previousIds), `${before.ids.length} opportunities`);
    const versionBefore = await setVersion();

    // 1. Killed while fetching: as soon as its round row exists.
    const first = startWorker(database.url, 0);
    workers.push(first.child);
    const running = await waitUntil(async () => (await database.db.ingestionRound.count({ where: { status: "running" } })) > 0, 60_000, 5);
    await kill(first.child);
    report.check("worker 1 killed while its round was running (fetching/storing)", running, running ? "" : first.output().slice(-1_000));

    // 2. Killed inside the publishing transaction: once its round has stored its observations, the
    // watcher holds the round's row, so the transaction that has written the new set waits there to
    // mark the round published.
    const secondStartedAt = new Date();
    const second = startWorker(database.url, 1_500);
    workers.push(second.child);
    let roundId: string | undefined;
    const stored = await waitUntil(async () => {
      const { rows } = await watcher.query(
        `SELECT id FROM "IngestionRound" r WHERE status = 'running' AND "startedAt" >= $1
           AND EXISTS (SELECT 1 FROM "RoundSnapshot" s WHERE s."roundId" = r.id)`,
        [secondStartedAt],
      );
      roundId = rows[0]?.id;
      return roundId !== undefined;
    }, 60_000, 5);
    let blocked = false;
    if (stored) {
      await watcher.query("BEGIN");
      await watcher.query(`SELECT id FROM "IngestionRound" WHERE id = $1 FOR UPDATE NOWAIT`, [roundId]);
      blocked = await waitUntil(() => blockedAfterWritingTheSet(watcher), 30_000, 5);
    }
    await kill(second.child);
    if (stored) await watcher.query("ROLLBACK");
    report.check("worker 2 killed inside its publishing transaction, having written the new set", blocked, blocked ? "" : second.output().slice(-1_000));
    // Its backend aborts the transaction once it notices the connection is gone.
    await waitUntil(async () => !(await holdingTheSet(watcher)), 10_000, 20);

    const versionAfterKills = await setVersion();
    const storedAfterKills = await storedIds();
    report.check(
      "the stored set is still the previous one (same version and ids)",
      versionAfterKills === versionBefore && JSON.stringify(storedAfterKills) === JSON.stringify(previousIds),
      `version ${versionBefore} → ${versionAfterKills}`,
    );
    await sleep(2_500); // longer than the server's version poll: it would have noticed a change
    const afterKills = await served();
    report.check("the server still serves the previous set", afterKills.status === 200 && JSON.stringify(afterKills.ids) === JSON.stringify(previousIds), `HTTP ${afterKills.status}, ${afterKills.ids.length} opportunities`);
    const rounds = await database.db.ingestionRound.findMany({ orderBy: { startedAt: "asc" }, select: { status: true } });
    report.note(`rounds after the kills: ${rounds.map((r) => r.status).join(", ")}`);

    // 3. A new worker: its round publishes despite the two left running.
    const third = startWorker(database.url, 0);
    workers.push(third.child);
    const published = await waitUntil(async () => (await database.db.ingestionRound.count({ where: { status: "published" } })) > 0, 90_000, 200);
    report.check("the next worker's round publishes", published, published ? `version ${await setVersion()}` : third.output().slice(-2_000));
    if (published) {
      const newIds = new Set(await storedIds());
      const switched = await waitUntil(async () => {
        const now = await served();
        return now.status === 200 && now.sample === false && now.ids.length > 0 && now.ids.every((id) => newIds.has(id));
      }, 10_000, 250);
      report.check("the server serves the new round's set within 10 s", switched, `${newIds.size} opportunities in the new set`);
    }
    await stopChild(third.child, "SIGTERM", 10_000);
  } finally {
    for (const child of workers) await stopChild(child, "SIGKILL", 0).catch(() => undefined);
    await server?.stop();
    await watcher.end().catch(() => undefined);
    await database.close();
  }
  return report;
}
