// `npm run bench:market`: the market layer's two performance targets (issue 5).
//   1. A round over 600 assets × 8 venues: load the stored snapshots of the latest round, read what
//      stored history adds (interval changes, last settlements, 1d/7d averages), rank and publish the
//      set, with the round's own functions; target < 1 s.
//      Prints each phase, the whole round and the process's peak memory.
//   2. The 30-day funding history of one market with 10 million FundingRate rows stored, through
//      the same Prisma query GET /v1/funding-rates makes; target p99 < 20 ms on PostgreSQL.
// With DATABASE_URL (postgres://…) it runs on a scratch database created on that server and
// dropped afterwards; without, on an in-memory PGlite with fewer rows (it says so), or with
// --on-disk on a PGlite data directory in a temporary folder, as the embedded server stores it.
//
//   node --import tsx scripts/bench/market.ts [--rows=10000000] [--queries=250] [--rounds=5] [--on-disk]
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Db } from "@/lib/db";
import { openDatabase, type OpenDatabase } from "@/lib/db/open-database";
import { usdtPerp } from "@/tests/support/market/make-snapshot";
import { createTestDatabase } from "@/tests/support/test-database";
import { aggregateRound } from "@/lib/market/ingest/aggregate-rounds";
import { fromSnapshotRow } from "@/lib/market/ingest/store-round";
import { rankWithHistory, readMarketHistory } from "@/lib/market/ingest/market-history";
import { publishLiveOpportunities } from "@/lib/market/publish-opportunities";

const ASSETS = 600;
const VENUES = ["binance", "bybit", "okx", "bitget", "gate", "hyperliquid", "dydx", "kraken"];
const TARGET_ROUND_MS = 1_000;
const TARGET_P99_MS = 20;
const HOUR = 3_600_000;
const DAY = 24 * HOUR;

function option(name: string, fallback: number): number {
  const arg = process.argv.find((a) => a.startsWith(`--${name}=`));
  const value = arg ? Number(arg.slice(name.length + 3)) : fallback;
  if (!Number.isInteger(value) || value <= 0) throw new Error(`--${name} must be a positive integer`);
  return value;
}

const serverUrl = process.env.DATABASE_URL;
const onPostgres = Boolean(serverUrl);
const onDisk = !onPostgres && process.argv.includes("--on-disk");
const rows = option("rows", onPostgres ? 10_000_000 : 200_000);
const queries = option("queries", 250);
const rounds = option("rounds", 5);

/** Peak RSS and heap, sampled every 5 ms while the rounds run. */
function memorySampler() {
  let rss = 0;
  let heap = 0;
  const sample = () => {
    const m = process.memoryUsage();
    rss = Math.max(rss, m.rss);
    heap = Math.max(heap, m.heapUsed);
  };
  const timer = setInterval(sample, 5);
  return {
    stop() {
      clearInterval(timer);
      sample();
      return { rssMb: rss / 2 ** 20, heapMb: heap / 2 ** 20 };
    },
  };
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN;
}

const ms = (value: number) => `${value.toFixed(1)} ms`;

/** One stored round of 600 assets × 8 venues, with hourly history for the averages. */
async function seedRound(db: Db, observedAt: number): Promise<string> {
  const round = await db.ingestionRound.create({ data: { startedAt: new Date(observedAt), status: "published" } });
  const data = [];
  for (let a = 0; a < ASSETS; a++) {
    const base = `A${String(a).padStart(4, "0")}`;
    for (const [v, exchange] of VENUES.entries()) {
      const hours = exchange === "hyperliquid" ? 1 : (a + v) % 5 === 0 ? 4 : 8;
      data.push({
        roundId: round.id,
        exchange,
        ...usdtPerp(base),
        fundingRate: Math.sin(a * 7.1 + v * 3.3) * 0.0004 * (hours / 8),
        fundingIntervalHours: hours,
        fundingIntervalSource: "venue",
        nextFundingAt: new Date(Math.ceil(observedAt / (hours * HOUR)) * hours * HOUR),
        markPrice: 10 + a + Math.cos(v) * 0.01,
        indexPrice: 10 + a,
        openInterestUsd: 1e6 + a * 1000 + v,
        volume24hUsd: 5e6 + a * 5000 + v,
        takerFee: 0.0005,
        observedAt: new Date(observedAt),
      });
    }
  }
  await db.roundSnapshot.createMany({ data });
  await aggregateRound(db, round.id);
  // The day of settlements and the week of interval changes the round reads back for the legs:
  // every market settled at its interval, and one market in five changed its interval 3 days ago.
  const settlements = [];
  const changes = [];
  for (const row of data) {
    const hours = row.fundingIntervalHours;
    for (let t = Math.floor(observedAt / (hours * HOUR)) * hours * HOUR; t > observedAt - DAY; t -= hours * HOUR) {
      settlements.push({ exchange: row.exchange, market: row.market, base: row.base, time: new Date(t), rate: row.fundingRate, intervalHours: hours, source: "observed" });
    }
    if (hours === 4) {
      const effectiveAt = new Date(observedAt - 3 * DAY);
      changes.push({ exchange: row.exchange, market: row.market, base: row.base, effectiveAt, fromHours: 8, toHours: 4, source: "venue", detectedAt: effectiveAt });
    }
  }
  await db.fundingRate.createMany({ data: settlements, skipDuplicates: true });
  await db.fundingIntervalChange.createMany({ data: changes });
  console.log(`  seeded ${settlements.length} settlements of the last day and ${changes.length} interval changes`);
  return round.id;
}

async function benchRound(db: Db) {
  const now = Date.now();
  const roundId = await seedRound(db, now);
  const phases = { load: [] as number[], history: [] as number[], rank: [] as number[], publish: [] as number[], total: [] as number[] };
  let opportunities = 0;
  const memory = memorySampler();
  for (let i = 0; i < rounds; i++) {
    const t0 = performance.now();
    const stored = await db.roundSnapshot.findMany({ where: { roundId } });
    const snapshots = stored.map(fromSnapshotRow);
    const t1 = performance.now();
    const history = await readMarketHistory(db, new Date(now), new Date(now));
    const t2 = performance.now();
    const items = rankWithHistory(snapshots, history);
    const t3 = performance.now();
    await publishLiveOpportunities(db, items, { asOf: new Date(now), sample: false });
    const t4 = performance.now();
    phases.load.push(t1 - t0);
    phases.history.push(t2 - t1);
    phases.rank.push(t3 - t2);
    phases.publish.push(t4 - t3);
    phases.total.push(t4 - t0);
    opportunities = items.length;
    if (i === 0) console.log(`  ${snapshots.length} snapshots → ${opportunities} opportunities`);
  }
  const peak = memory.stop();
  const median = (list: number[]) => percentile([...list].sort((a, b) => a - b), 50);
  console.log(
    `  median of ${rounds}: load ${ms(median(phases.load))}, history reads (interval changes, last settlements, ` +
      `1d/7d averages) ${ms(median(phases.history))}, rank ${ms(median(phases.rank))}, publish ${ms(median(phases.publish))}`,
  );
  const total = median(phases.total);
  const rank = median(phases.rank);
  console.log(`  round (load → publish): ${ms(total)}  target < ${TARGET_ROUND_MS} ms  ratio ${(total / TARGET_ROUND_MS).toFixed(2)}  ${total < TARGET_ROUND_MS ? "MET" : "MISSED"}`);
  console.log(`  ranking alone (rankWithHistory): ${ms(rank)}  ratio ${(rank / TARGET_ROUND_MS).toFixed(3)}`);
  console.log(`  peak memory: RSS ${peak.rssMb.toFixed(0)} MB, JS heap ${peak.heapMb.toFixed(0)} MB`);
}

async function seedHistory(db: Db): Promise<{ markets: number; hours: number; end: number }> {
  const markets = onPostgres ? 2_000 : 200;
  const hours = Math.ceil(rows / markets);
  const end = Math.floor(Date.now() / HOUR) * HOUR;
  const start = end - (hours - 1) * HOUR;
  const started = performance.now();
  // Server-side generation in market batches (one statement each, in primary-key order so the
  // index grows at its right edge): minutes for 10 million rows instead of hours of round trips.
  const batch = Math.max(1, Math.floor(markets / 20));
  for (let m = 0; m < markets; m += batch) {
    const last = Math.min(markets, m + batch) - 1;
    await db.$executeRawUnsafe(
      `INSERT INTO "FundingRate" (exchange, market, base, time, rate, "intervalHours", source)
       SELECT 'v' || (m % 8), 'A' || lpad((m / 8)::text, 4, '0') || '/USDT:USDT', 'A' || lpad((m / 8)::text, 4, '0'),
              to_timestamp(${start / 1000} + h * 3600) AT TIME ZONE 'UTC', (random() - 0.4) * 0.001, 1, 'observed'
       FROM generate_series(${m}, ${last}) AS m, generate_series(0, ${hours - 1}) AS h
       ORDER BY 1, 2, 4`,
    );
    process.stdout.write(`\r  seeding: ${Math.round(((last + 1) / markets) * 100)} %`);
  }
  await db.$executeRawUnsafe(`ANALYZE "FundingRate"`);
  const count = await db.fundingRate.count();
  console.log(`\r  seeded ${count.toLocaleString("en")} rows (${markets} markets × ${hours} hourly settlements) in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  return { markets, hours, end };
}

async function benchHistory(db: Db) {
  const { markets, hours, end } = await seedHistory(db);
  const windowHours = 30 * 24;
  let seed = 42;
  const random = () => ((seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31);
  const query = async () => {
    const m = Math.floor(random() * markets);
    const exchange = `v${m % 8}`;
    const market = `A${String(Math.floor(m / 8)).padStart(4, "0")}/USDT:USDT`;
    const to = end - Math.floor(random() * Math.max(1, hours - windowHours)) * HOUR;
    const t0 = performance.now();
    const found = await db.fundingRate.findMany({
      where: { exchange, market, time: { gte: new Date(to - windowHours * HOUR), lte: new Date(to) } },
      orderBy: { time: "asc" },
    });
    return { elapsed: performance.now() - t0, rows: found.length };
  };
  for (let i = 0; i < 20; i++) await query(); // warm-up: connections, plan cache
  const times: number[] = [];
  let returned = 0;
  for (let i = 0; i < queries; i++) {
    const { elapsed, rows: n } = await query();
    times.push(elapsed);
    returned += n;
  }
  times.sort((a, b) => a - b);
  const p99 = percentile(times, 99);
  console.log(`  ${queries} queries, ${Math.round(returned / queries)} rows each on average`);
  console.log(`  p50 ${ms(percentile(times, 50))}  p90 ${ms(percentile(times, 90))}  p99 ${ms(p99)}  max ${ms(times.at(-1) ?? Number.NaN)}`);
  console.log(`  p99 target < ${TARGET_P99_MS} ms${onPostgres ? "" : " (a PostgreSQL target; this is PGlite)"}  ratio ${(p99 / TARGET_P99_MS).toFixed(2)}  ${p99 < TARGET_P99_MS ? "MET" : "MISSED"}`);
  const plan = await db.$queryRawUnsafe<{ "QUERY PLAN": string }[]>(
    `EXPLAIN SELECT * FROM "FundingRate" WHERE exchange = 'v1' AND market = 'A0001/USDT:USDT'
       AND time >= now() - interval '30 days' ORDER BY time`,
  );
  console.log(`  plan: ${plan.map((r) => r["QUERY PLAN"].trim()).join(" | ")}`);
}

async function main() {
  console.log(
    onPostgres
      ? `bench:market on PostgreSQL (scratch database on ${new URL(serverUrl!).host})`
      : `bench:market on embedded PGlite (no DATABASE_URL${onDisk ? ", a data directory on disk" : ", in memory"}): ${rows.toLocaleString("en")} history rows instead of 10 million; set DATABASE_URL for the PostgreSQL figures`,
  );
  const dataDir = onDisk ? mkdtempSync(path.join(os.tmpdir(), "fods-bench-market-")) : undefined;
  let database: OpenDatabase;
  try {
    database = dataDir ? await openDatabase({ driver: "pglite", dataDir }) : await createTestDatabase();
  } catch (error) {
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
    throw error;
  }
  try {
    console.log(`\n1. A round over ${ASSETS} assets × ${VENUES.length} venues from stored snapshots`);
    await benchRound(database.db);
    console.log(`\n2. 30-day history of one market among ${rows.toLocaleString("en")} FundingRate rows`);
    await benchHistory(database.db);
  } finally {
    await database.close();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
