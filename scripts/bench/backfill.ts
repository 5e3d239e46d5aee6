// `npm run bench:backfill`: a year of every market of every venue with a history reader, backfilled
// into a private PostgreSQL (started as .ci/run starts CI's, default settings; or the server
// DATABASE_URL names) through the real path: each venue's reader reads pages of its recorded answer
// widened to N assets × D days (history-replays.ts: the venue's envelope, paging, page size,
// interval, time jitter), backfillVenue walks every market's cursor, storePages derives the intervals
// and stores each page with its cursor, and the coverage GET /v1/funding-rates/coverage computes is
// read back for every asset and checked: every settlement there once, no gap. Venues are walked four
// at a time per worker, as the worker's backfill queue runs them, by `--workers` workers (each its
// own database client and pool, as each worker process has; the venues dealt among them, every
// venue's job in one worker at a time). No request waits for a venue's budget: the
// time the live backfill would take at each venue's published limit (requests ÷ its history
// endpoint's rate) is printed instead.
//
// Prints rows, rows/s, total time, RSS over the run (first, last, peak, samples), bytes per row, per
// venue rows, pages, time and the live estimate, and a baseline measured in the same run: the same
// kind of rows stored one settlement per statement (the plainest store), as rows/s and the ratio.
//
//   node --import tsx scripts/bench/backfill.ts [--assets=600] [--days=365] [--workers=2] [--concurrency=4]
//        [--venues=binance,okx] [--baseline-rows=20000] [--coverage-assets=600]
import { readdirSync, readFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import type { Db } from "@/lib/db";
import { directSql } from "@/lib/db/direct-sql";
import { openDatabase, type OpenDatabase } from "@/lib/db/open-database";
import { cursorGroups, seedCursors } from "@/lib/history/backfill/backfill-store";
import { backfillVenue, depthSince } from "@/lib/history/backfill/backfill-venue";
import { settlementCoverage } from "@/lib/history/coverage/settlement-coverage";
import { readLastSettlements } from "@/lib/market/ingest/read-last-settlements";
import { readSettlementMarks } from "@/lib/market/ingest/read-settlement-marks";
import { syntheticBases } from "./widen-replays";
import { intOption } from "./bench-args";
import { historyReplays, replayIo, unreplayedVenues, type VenueReplay } from "./history-replays";
import { startPrivatePostgres } from "./private-postgres";
import { parsePpid, readCpuMs } from "./footprint-proc";

const TARGET_S = 600;
const HOUR = 3_600_000;
const DAY = 24 * HOUR;
/** The replayed venues hold this much more than the backfill asks, so walks going back see older pages and stop there. */
const OLDER_HELD_DAYS = 30;

const assets = intOption("assets", 600);
const days = intOption("days", 365);
/** Venues at a time per worker: the backfill queue's concurrency (backfill-jobs.ts). */
const concurrency = intOption("concurrency", 4);
const workers = intOption("workers", 2);
const baselineRows = intOption("baseline-rows", 20_000);
const coverageAssets = Math.min(assets, intOption("coverage-assets", assets));
const venuesArg = process.argv.find((a) => a.startsWith("--venues="))?.slice("--venues=".length).split(",");

const load = () => os.loadavg().map((l) => l.toFixed(2)).join(" ");
const mb = (bytes: number) => `${(bytes / 2 ** 20).toFixed(0)} MB`;
const int = (n: number) => Math.round(n).toLocaleString("en");
const duration = (seconds: number) =>
  seconds < 120 ? `${seconds.toFixed(1)} s` : seconds < 2 * 3600 ? `${(seconds / 60).toFixed(1)} min` : seconds < 2 * 86_400 ? `${(seconds / 3600).toFixed(1)} h` : `${(seconds / 86_400).toFixed(1)} d`;

/** RSS every second (for the printed samples) and at 5 ms for the peak. */
function rssTrack() {
  const samples: { at: number; rss: number }[] = [];
  const started = performance.now();
  let peak = 0;
  const fine = setInterval(() => (peak = Math.max(peak, process.memoryUsage.rss())), 5);
  const coarse = setInterval(() => samples.push({ at: (performance.now() - started) / 1000, rss: process.memoryUsage.rss() }), 1_000);
  return {
    stop() {
      clearInterval(fine);
      clearInterval(coarse);
      return { samples, peak: Math.max(peak, process.memoryUsage.rss()) };
    },
  };
}

/** CPU seconds of a process (and with `withChildren` of those it reaped), from /proc. */
function procCpu(pid: number, withChildren: boolean): number {
  return readCpuMs(`/proc/${pid}/stat`, withChildren) / 1000;
}

/**
 * CPU seconds the private PostgreSQL has used: its postmaster with the backends it reaped, plus the
 * live ones. With the load of a shared machine, what the run cost apart from its wait.
 */
function postgresCpu(dataDir: string): number {
  const postmaster = Number(readFileSync(path.join(dataDir, "postmaster.pid"), "utf8").split("\n")[0]);
  let total = procCpu(postmaster, true);
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      if (parsePpid(stat) === postmaster) total += procCpu(Number(entry), false);
    } catch {
      // The process ended meanwhile.
    }
  }
  return total;
}

interface VenueRun {
  replay: VenueReplay;
  expected: number;
  inserted: number;
  pages: number;
  requests: number;
  answerMs: number;
  seconds: number;
  interrupted: boolean;
  failed: boolean;
}

/** Settlements per asset of `replay` the backfill should store: those in [depthSince, now]. */
function expectedPerAsset(replay: VenueReplay, since: number, now: number): number {
  const [lo, hi] = replay.series.within(depthSince(since, replay.reader, now), now);
  return hi - lo;
}

async function runVenue(db: Db, replay: VenueReplay, since: number, now: number, bases: readonly string[]): Promise<VenueRun> {
  const io = replayIo(replay);
  const started = performance.now();
  const result = await backfillVenue({ db, reader: replay.reader, io, since, now: () => now });
  const seconds = (performance.now() - started) / 1000;
  const run: VenueRun = {
    replay,
    expected: expectedPerAsset(replay, since, now) * bases.length,
    inserted: result.inserted,
    pages: result.pages,
    requests: io.requests,
    answerMs: io.answerMs,
    seconds,
    interrupted: result.interrupted,
    failed: result.failed,
  };
  console.log(
    `  ${replay.exchange.padEnd(13)} ${int(run.inserted).padStart(11)} rows ${int(run.requests).padStart(7)} requests ${duration(seconds).padStart(8)}` +
      `  ${int(run.inserted / seconds).padStart(7)} rows/s (replay ${(run.answerMs / 1000).toFixed(1)} s); load ${load()}`,
  );
  return run;
}

/** `work` over `items`, at most `limit` at a time. */
async function pooled<T, R>(items: readonly T[], limit: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  const lane = async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await work(items[index]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, lane));
  return results;
}

/**
 * GET /v1/funding-rates/coverage's computation for the first `count` assets of each venue (the
 * stored settlements read back as the route reads them): each series must hold exactly the
 * settlements the replay served in the window, with no gap.
 */
async function checkCoverage(db: Db, runs: readonly VenueRun[], bases: readonly string[], since: number, now: number) {
  const started = performance.now();
  let series = 0;
  let read = 0;
  const problems: string[] = [];
  for (const run of runs) {
    const expected = expectedPerAsset(run.replay, since, now);
    for (const base of bases.slice(0, coverageAssets)) {
      const coverage = settlementCoverage(await readSettlementMarks(db, run.replay.exchange, base));
      series += coverage.length;
      for (const one of coverage) {
        read += one.settlements;
        if (one.settlements !== expected || one.gapsTotal !== 0 || Math.abs((one.typicalIntervalHours ?? 0) - run.replay.intervalHours) > 1 / 60) {
          problems.push(`${run.replay.exchange} ${one.market}: ${one.settlements}/${expected} settlements, ${one.gapsTotal} gaps, every ${one.typicalIntervalHours} h`);
        }
      }
      if (coverage.length !== 1) problems.push(`${run.replay.exchange} ${base}: ${coverage.length} series`);
    }
  }
  return { seconds: (performance.now() - started) / 1000, series, read, problems };
}

async function storage(db: Db) {
  const [sizes] = await directSql(db).query<{ total: string; heap: string; indexes: string; rows: string }>({
    text: `SELECT sum(pg_total_relation_size(relid))::bigint AS total, sum(pg_table_size(relid))::bigint AS heap,
                  sum(pg_indexes_size(relid))::bigint AS indexes, (SELECT count(*) FROM "FundingRate")::bigint AS rows
           FROM pg_partition_tree('"FundingRate"')`,
    values: [],
  });
  return { total: Number(sizes!.total), heap: Number(sizes!.heap), indexes: Number(sizes!.indexes), rows: Number(sizes!.rows) };
}

/**
 * The plainest store: the first venue's settlements one INSERT each (autocommit, ON CONFLICT DO
 * NOTHING), `count` of them, in their own database on the same server.
 */
async function baseline(db: Db, replay: VenueReplay, bases: readonly string[], since: number, now: number, count: number) {
  const sql = directSql(db);
  const [lo, hi] = replay.series.within(depthSince(since, replay.reader, now), now);
  const { ensureSettlementPartitions } = await import("@/lib/history/store/settlement-partitions");
  await ensureSettlementPartitions(sql, replay.series.time(lo), replay.series.time(hi - 1));
  const started = performance.now();
  let done = 0;
  for (let k = 0; k < bases.length && done < count; k++) {
    const market = replay.market(bases[k]!);
    for (let i = lo; i < hi && done < count; i++, done++) {
      await sql.query({
        text: `INSERT INTO "FundingRate" (exchange, market, base, time, rate, "intervalHours", source)
               VALUES ($1, $2, $3, $4::timestamp(3), $5::float8, $6::float8, 'backfill') ON CONFLICT DO NOTHING`,
        values: [market.exchange, market.market, market.base, new Date(replay.series.time(i)).toISOString(), 0.0001, replay.intervalHours],
      });
    }
  }
  return { rows: done, seconds: (performance.now() - started) / 1000 };
}

async function createDatabase(serverUrl: string, name: string): Promise<OpenDatabase> {
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  try {
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return openDatabase({ driver: "postgres", url: url.toString() });
}

async function main() {
  const given = process.env.DATABASE_URL;
  const server = given ? null : await startPrivatePostgres("fods-bench-backfill");
  const serverUrl = given ?? server!.url;
  const now = Math.floor(Date.now() / HOUR) * HOUR;
  const since = now - days * DAY;
  const bases = syntheticBases(assets);
  const replays = historyReplays({ bases, start: since - OLDER_HELD_DAYS * DAY, end: now, venues: venuesArg });
  console.log(
    `bench:backfill: ${replays.length} venues × ${assets} assets × ${days} days into ${given ? `the server DATABASE_URL names (${new URL(given).host})` : `a private PostgreSQL in ${server!.dataDir}`}`,
  );
  const missing = unreplayedVenues();
  if (missing.length > 0) console.log(`  venues with a history reader but no replay yet, not measured: ${missing.join(", ")}`);
  for (const replay of replays) if (replay.note) console.log(`  ${replay.exchange}: ${replay.note}`);
  console.log(`  machine: ${os.cpus().length} cores, ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB; load at start ${load()}; ${workers} worker(s), ${concurrency} venues at a time each`);
  const databases: OpenDatabase[] = [];
  try {
    const main = await createDatabase(serverUrl, "bench_backfill");
    databases.push(main);
    const { db } = main;
    for (const replay of replays) await seedCursors(db, bases.map(replay.market), now);

    const rssBefore = process.memoryUsage.rss();
    const track = rssTrack();
    const cpuBefore = { node: process.cpuUsage(), postgres: server ? postgresCpu(server.dataDir) : null };
    const started = performance.now();
    // The other workers' own clients on the same database; the hourly venues (the most rows) dealt first.
    const clients = [main];
    for (let w = 1; w < workers; w++) {
      const url = new URL(serverUrl);
      url.pathname = "/bench_backfill";
      clients.push(await openDatabase({ driver: "postgres", url: url.toString() }));
      databases.push(clients.at(-1)!);
    }
    const order = [...replays].sort((a, b) => a.intervalHours - b.intervalHours);
    const dealt = clients.map((_, w) => order.filter((__, i) => i % workers === w));
    const runs = (await Promise.all(dealt.map((mine, w) => pooled(mine, concurrency, (replay) => runVenue(clients[w]!.db, replay, since, now, bases))))).flat();
    const seconds = (performance.now() - started) / 1000;
    const nodeCpu = process.cpuUsage(cpuBefore.node);
    const postgresSeconds = server && cpuBefore.postgres !== null ? postgresCpu(server.dataDir) - cpuBefore.postgres : null;
    const memory = track.stop();
    const loadAfter = load();

    const rows = runs.reduce((sum, run) => sum + run.inserted, 0);
    const expected = runs.reduce((sum, run) => sum + run.expected, 0);
    const size = await storage(db);
    const groups = await cursorGroups(db, now);
    const notDone = groups.filter((group) => group.status !== "done").reduce((sum, group) => sum + group.markets, 0);
    console.log(`\n  total: ${int(rows)} rows (${int(expected)} served in the window) in ${duration(seconds)}: ${int(rows / seconds)} rows/s; load at end ${loadAfter}`);
    console.log(
      `  CPU during it: this process ${((nodeCpu.user + nodeCpu.system) / 1e6).toFixed(1)} s` +
        (postgresSeconds === null ? "" : `, PostgreSQL ${postgresSeconds.toFixed(1)} s`) +
        ` (of ${(seconds * os.cpus().length).toFixed(0)} core-seconds the run lasted)`,
    );
    console.log(`  target: a year of every market in under ${TARGET_S / 60} min: ${seconds < TARGET_S && rows === expected ? "MET" : "MISSED"}`);
    const s = memory.samples;
    const step = Math.max(1, Math.ceil(s.length / 12));
    console.log(
      `  RSS: before ${mb(rssBefore)}, first sample ${mb(s[0]?.rss ?? rssBefore)}, last ${mb(s.at(-1)?.rss ?? rssBefore)}, peak ${mb(memory.peak)}; ` +
        `every ${step} s: ${s.filter((_, i) => i % step === 0).map((x) => (x.rss / 2 ** 20).toFixed(0)).join(" ")} MB`,
    );
    console.log(
      `  stored: ${int(size.rows)} rows, ${(size.total / 2 ** 30).toFixed(2)} GiB; bytes per row ${(size.total / size.rows).toFixed(1)} ` +
        `(table ${(size.heap / size.rows).toFixed(1)}, indexes ${(size.indexes / size.rows).toFixed(1)}); cursors not done: ${notDone}`,
    );

    const coverage = await checkCoverage(db, runs, bases, since, now);
    console.log(
      `  coverage of ${int(coverage.series)} series (${coverageAssets} assets a venue) read back in ${duration(coverage.seconds)} (${int(coverage.read)} settlements): ` +
        (coverage.problems.length === 0 ? "every series whole, no gap, no duplicate" : `${coverage.problems.length} problems, e.g. ${coverage.problems.slice(0, 3).join("; ")}`),
    );

    // The reads by time alone (no index on time: the last day's month partitions are scanned), at this table's size.
    const lastDay: number[] = [];
    let lastMarkets = 0;
    for (let i = 0; i < 3; i++) {
      const started = performance.now();
      lastMarkets = (await readLastSettlements(db, new Date(now))).size;
      lastDay.push(performance.now() - started);
    }
    console.log(`  the last day's settlement of every market (${int(lastMarkets)} markets) read in ${lastDay.map((ms) => ms.toFixed(0)).join(", ")} ms (a round reads it when it holds no earlier round in memory)`);

    console.log(`\n  per venue (live: requests ÷ the history endpoint's published rate, from one IP, live polling taking little of the venue's budget):`);
    console.log(`  ${"venue".padEnd(13)} ${"interval".padStart(8)} ${"rows".padStart(11)} ${"requests".padStart(9)} ${"time".padStart(8)} ${"rate/s".padStart(7)} ${"live".padStart(8)}  recording`);
    for (const run of runs) {
      const rate = run.replay.reader.limits.requestsPerSecond;
      const flag = run.inserted !== run.expected || run.failed || run.interrupted ? `  (!) expected ${int(run.expected)}` : "";
      console.log(
        `  ${run.replay.exchange.padEnd(13)} ${`${run.replay.intervalHours} h`.padStart(8)} ${int(run.inserted).padStart(11)} ${int(run.requests).padStart(9)} ${duration(run.seconds).padStart(8)} ` +
          `${rate.toFixed(2).padStart(7)} ${duration(run.requests / rate).padStart(8)}  ${run.replay.recorded}${flag}`,
      );
    }

    const plain = await createDatabase(serverUrl, "bench_backfill_baseline");
    databases.push(plain);
    const base = await baseline(plain.db, replays[0]!, bases, since, now, baselineRows);
    const baseRate = base.rows / base.seconds;
    console.log(
      `\n  baseline (same server, same run): ${int(base.rows)} ${replays[0]!.exchange} settlements one INSERT each in ${duration(base.seconds)}: ${int(baseRate)} rows/s; ` +
        `the backfill stores ${(rows / seconds / baseRate).toFixed(1)}× as many rows a second; load at end ${load()}`,
    );
    if (coverage.problems.length > 0 || rows !== expected || notDone > 0) process.exitCode = 1;
  } finally {
    for (const database of databases) await database.close().catch(() => undefined);
    server?.stop();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
