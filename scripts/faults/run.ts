// `npm run test:faults`: the production server under faults, against the PostgreSQL and Redis named
// by DATABASE_URL and REDIS_URL (CI's, see .ci/run). Each scenario (a file beside this one) works in
// its own new database on that server, prints every check, and the run exits 1 if any check failed.
// Scenario c restarts that PostgreSQL (it must run on this machine); scenario d starts, stops and
// restarts a redis-server of its own, so the shared Redis is never stopped. Scenario e runs
// `npm run backfill` itself against a venue replayed on loopback and kills it mid-request.
//   DATABASE_URL=postgresql://… REDIS_URL=redis://… npm run test:faults [-- a c]   (scenarios to run)
import { existsSync } from "node:fs";
import path from "node:path";
import { killAllChildrenNow, stopAllChildren } from "@/scripts/bench/processes";
import { ROOT, type FaultEnv } from "./harness";
import { idempotentRetries } from "./idempotent-retries";
import { killDuringBackfill } from "./kill-during-backfill";
import { killDuringRound } from "./kill-during-round";
import { postgresRestart } from "./postgres-restart";
import { redisRestart } from "./redis-restart";
import type { Report } from "./report";

const SCENARIOS: Record<string, { title: string; run: (env: FaultEnv) => Promise<Report> }> = {
  a: { title: "a. SIGKILL during an ingestion round", run: killDuringRound },
  b: { title: "b. retried idempotent writes", run: idempotentRetries },
  c: { title: "c. PostgreSQL restarted under load", run: postgresRestart },
  d: { title: "d. Redis stopped and restarted", run: redisRestart },
  e: { title: "e. SIGKILL during a backfill", run: killDuringBackfill },
};

process.on("exit", killAllChildrenNow);
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.on(signal, () => void stopAllChildren().finally(() => process.exit(130)));
}

async function main(): Promise<number> {
  const databaseUrl = process.env.DATABASE_URL;
  const redisUrl = process.env.REDIS_URL;
  if (!databaseUrl || !redisUrl) {
    console.error("test:faults needs DATABASE_URL (a PostgreSQL server on this machine) and REDIS_URL; .ci/run shows how to start private ones");
    return 2;
  }
  if (!existsSync(path.join(ROOT, ".next/BUILD_ID"))) {
    console.error("no production build: run `node scripts/ensure-build.mjs` first (npm run test:faults does)");
    return 2;
  }
  const chosen = process.argv.slice(2).filter((a) => !a.startsWith("-"));
  const names = chosen.length ? chosen : Object.keys(SCENARIOS);
  const unknown = names.filter((n) => !SCENARIOS[n]);
  if (unknown.length) throw new Error(`unknown scenario ${unknown.join(", ")}; choose from ${Object.keys(SCENARIOS).join(" ")}`);

  const summary: { title: string; failed: number; checks: number; seconds: number; error?: string }[] = [];
  for (const name of names) {
    const { title, run } = SCENARIOS[name]!;
    console.log(`\n${title}`);
    const started = Date.now();
    try {
      const report = await run({ databaseUrl, redisUrl });
      summary.push({ title, failed: report.failed, checks: report.checks.length, seconds: (Date.now() - started) / 1000 });
    } catch (error) {
      console.log(`  FAIL  the scenario itself failed: ${(error as Error).stack ?? error}`);
      summary.push({ title, failed: 1, checks: 0, seconds: (Date.now() - started) / 1000, error: (error as Error).message });
    }
    await stopAllChildren();
  }

  console.log("\nsummary");
  for (const s of summary) {
    console.log(`  ${s.failed ? "FAIL" : "PASS"}  ${s.title.padEnd(40)} ${s.checks - (s.error ? 0 : s.failed)}/${s.checks} checks passed  ${s.seconds.toFixed(0)} s${s.error ? `  (${s.error})` : ""}`);
  }
  return summary.some((s) => s.failed) ? 1 : 0;
}

main().then(
  (code) => process.exit(code),
  (error) => {
    console.error("test:faults failed:", error);
    process.exit(1);
  },
);
