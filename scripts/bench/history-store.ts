// `npm run bench:history-store -- --rows=N`: the settlement store at scale. Fills a private
// PostgreSQL (started as .ci/run starts CI's, default settings; or the server DATABASE_URL names)
// with N synthetic settlements through the real schema (its migrations, monthly partitions made by
// ensureSettlementPartitions), generated server-side: 45 venues × 600 markets, a third each settling
// every 1, 4 and 8 hours, the older half marked "backfill". Rows go in as live rounds write them,
// every market's settlement of an hour together, so one market's rows spread over as many pages as
// it has rows: the layout least kind to the query. Then times the query GET /v1/funding-rates makes
// (the live Market's settlementPage: one asset on one venue, 30 days, its max page of 1,000 rows plus
// the count) at random markets and ends, through Prisma and through the driver alone, interleaved
// with the same query on a small table filled alike (the baseline), and prints p50/p99/max of both,
// their ratio, the bytes per row and the plan.
//
//   node --import tsx scripts/bench/history-store.ts [--rows=10000000] [--queries=500] [--baseline-rows=300000]
import os from "node:os";
import pg from "pg";
import type { Db } from "@/lib/db";
import { openDatabase, type OpenDatabase } from "@/lib/db/open-database";
import { directSql } from "@/lib/db/direct-sql";
import { ensureSettlementPartitions } from "@/lib/history/store/settlement-partitions";
import { intOption, percentile } from "./bench-args";
import { startPrivatePostgres } from "./private-postgres";

const TARGET_P99_MS = 20;
const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const VENUES = 45;
const MARKETS = 600;
const INTERVALS = [1, 4, 8] as const;
const WINDOW_DAYS = 30;
const PAGE = 1_000;

const rows = intOption("rows", 10_000_000);
const baselineRows = intOption("baseline-rows", 300_000);
const queries = intOption("queries", 500);

const ms = (value: number) => `${value.toFixed(2)} ms`;
const load = () => os.loadavg().map((l) => l.toFixed(2)).join(" ");

/** Settlements a day of `markets` markets per venue yields (a third each every 1, 4 and 8 hours). */
function rowsPerDay(markets: number): number {
  let perVenue = 0;
  for (let m = 0; m < markets; m++) perVenue += 24 / INTERVALS[m % INTERVALS.length]!;
  return perVenue * VENUES;
}

interface Filled {
  markets: number;
  start: number;
  end: number;
  count: number;
}

/**
 * `target` rows ending at the last 8-hour boundary, a day a statement, the months' partitions made
 * first: 600 markets a venue over as many days as that takes, or fewer markets over the 31 days a
 * 30-day query needs.
 */
async function fill(db: Db, target: number, label: string): Promise<Filled> {
  const markets = Math.max(3, Math.min(MARKETS, Math.round((MARKETS * target) / (rowsPerDay(MARKETS) * (WINDOW_DAYS + 1)))));
  const days = Math.max(WINDOW_DAYS + 1, Math.ceil(target / rowsPerDay(markets)));
  const end = Math.floor(Date.now() / (8 * HOUR)) * 8 * HOUR;
  const start = end - days * DAY;
  const backfillBefore = start + Math.floor(days / 2) * DAY;
  const started = performance.now();
  await ensureSettlementPartitions(directSql(db), start, end);
  for (let day = 0; day < days; day++) {
    const lo = start + day * DAY;
    await db.$executeRawUnsafe(
      `INSERT INTO "FundingRate" (exchange, market, base, time, rate, "intervalHours", source)
       SELECT 'venue' || lpad(v::text, 2, '0'), 'A' || lpad(m::text, 4, '0') || '/USDT:USDT', 'A' || lpad(m::text, 4, '0'),
              t, (random() - 0.4) * 0.001, i.hours, CASE WHEN t < to_timestamp(${backfillBefore / 1000}) AT TIME ZONE 'UTC' THEN 'backfill' ELSE 'observed' END
       FROM generate_series(to_timestamp(${lo / 1000}) AT TIME ZONE 'UTC', to_timestamp(${(lo + DAY - HOUR) / 1000}) AT TIME ZONE 'UTC', interval '1 hour') AS t,
            generate_series(0, ${VENUES - 1}) AS v,
            generate_series(0, ${markets - 1}) AS m,
            LATERAL (SELECT (ARRAY[${INTERVALS.join(",")}])[m % ${INTERVALS.length} + 1] AS hours) AS i
       WHERE extract(hour FROM t)::int % i.hours = 0
       ORDER BY t, v, m`,
    );
    if (day % 5 === 4 || day === days - 1) {
      const elapsed = (performance.now() - started) / 1000;
      process.stdout.write(`\r\x1b[K  ${label}: day ${day + 1}/${days}, ${elapsed.toFixed(0)} s, load ${load()}   `);
    }
  }
  const loaded = (performance.now() - started) / 1000;
  // What autovacuum does to a table once written: statistics for the planner, and the visibility
  // map that lets the count read the index alone.
  const vacuumStarted = performance.now();
  await db.$executeRawUnsafe(`VACUUM ANALYZE "FundingRate"`);
  const [{ count }] = await db.$queryRawUnsafe<[{ count: bigint }]>(`SELECT count(*) FROM "FundingRate"`);
  console.log(
    `\r  ${label}: ${Number(count).toLocaleString("en")} rows over ${days} days (${VENUES} venues × ${markets} markets) ` +
      `loaded in ${loaded.toFixed(0)} s (${Math.round(Number(count) / loaded).toLocaleString("en")} rows/s), vacuum analyze ${((performance.now() - vacuumStarted) / 1000).toFixed(0)} s`,
  );
  return { markets, start, end, count: Number(count) };
}

async function storage(db: Db, count: number) {
  const [sizes] = await db.$queryRawUnsafe<{ total: bigint; heap: bigint; indexes: bigint; partitions: bigint }[]>(
    `SELECT sum(pg_total_relation_size(relid))::bigint AS total, sum(pg_table_size(relid))::bigint AS heap,
            sum(pg_indexes_size(relid))::bigint AS indexes, (count(*) FILTER (WHERE isleaf))::bigint AS partitions
     FROM pg_partition_tree('"FundingRate"')`,
  );
  const per = (bytes: bigint) => (Number(bytes) / count).toFixed(1);
  console.log(
    `  storage: ${(Number(sizes!.total) / 2 ** 30).toFixed(2)} GiB in ${sizes!.partitions} partitions; bytes per row ${per(sizes!.total)} ` +
      `(table ${per(sizes!.heap)}, indexes ${per(sizes!.indexes)})`,
  );
}

/** GET /v1/funding-rates' read (lib/market/ingest/live-market.ts settlementPage) at a random market and end. */
function settlementPageQuery(db: Db, filled: Filled, random: () => number) {
  return async () => {
    const v = Math.floor(random() * VENUES);
    const m = Math.floor(random() * filled.markets);
    const to = filled.end - Math.floor(random() * ((filled.end - filled.start) / HOUR - WINDOW_DAYS * 24)) * HOUR;
    const where = {
      exchange: `venue${String(v).padStart(2, "0")}`,
      base: `A${String(m).padStart(4, "0")}`,
      time: { gte: new Date(to - WINDOW_DAYS * DAY), lte: new Date(to) },
    };
    const t0 = performance.now();
    const [found, total] = await db.$transaction([
      db.fundingRate.findMany({ where, orderBy: [{ time: "asc" }, { market: "asc" }], skip: 0, take: PAGE }),
      db.fundingRate.count({ where }),
    ]);
    const elapsed = performance.now() - t0;
    if (found.length !== Math.min(PAGE, total)) throw new Error(`page of ${found.length} rows for a total of ${total}`);
    return { elapsed, rows: found.length };
  };
}

/**
 * The same two statements sent by the driver alone, without Prisma: what the database itself takes,
 * apart from this process's share of a busy machine.
 */
function rawQuery(client: pg.Client, filled: Filled, random: () => number) {
  return async () => {
    const v = Math.floor(random() * VENUES);
    const m = Math.floor(random() * filled.markets);
    const to = filled.end - Math.floor(random() * ((filled.end - filled.start) / HOUR - WINDOW_DAYS * 24)) * HOUR;
    const values = [`venue${String(v).padStart(2, "0")}`, `A${String(m).padStart(4, "0")}`, new Date(to - WINDOW_DAYS * DAY).toISOString(), new Date(to).toISOString()];
    const where = `exchange = $1 AND base = $2 AND time >= $3::timestamp(3) AND time <= $4::timestamp(3)`;
    const t0 = performance.now();
    await client.query(`SELECT exchange, market, base, time, rate, "intervalHours", source FROM "FundingRate" WHERE ${where} ORDER BY time, market LIMIT ${PAGE}`, values);
    await client.query(`SELECT count(*) FROM "FundingRate" WHERE ${where}`, values);
    return { elapsed: performance.now() - t0, rows: 0 };
  };
}

async function connect(url: string): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  return client;
}

function summary(times: number[]) {
  const sorted = [...times].sort((a, b) => a - b);
  return { p50: percentile(sorted, 50), p99: percentile(sorted, 99), max: sorted.at(-1) ?? Number.NaN };
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
  return openDatabase({ driver: "postgres", url: databaseUrl(serverUrl, name) });
}

function databaseUrl(serverUrl: string, name: string): string {
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

async function main() {
  const given = process.env.DATABASE_URL;
  const server = given ? null : await startPrivatePostgres("fods-bench-history");
  const serverUrl = given ?? server!.url;
  console.log(`bench:history-store: ${rows.toLocaleString("en")} rows on ${given ? `the server DATABASE_URL names (${new URL(given).host})` : `a private PostgreSQL in ${server!.dataDir}`}`);
  console.log(`  machine: ${os.cpus().length} cores, ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB; load at start ${load()}`);
  const databases: OpenDatabase[] = [];
  try {
    const big = await createDatabase(serverUrl, "bench_history_big");
    databases.push(big);
    const small = await createDatabase(serverUrl, "bench_history_baseline");
    databases.push(small);
    const smallFilled = await fill(small.db, baselineRows, "baseline");
    const bigFilled = await fill(big.db, rows, "store");
    await storage(big.db, bigFilled.count);

    let seed = 42;
    const random = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
    const onBig = settlementPageQuery(big.db, bigFilled, random);
    const onSmall = settlementPageQuery(small.db, smallFilled, random);
    for (let i = 0; i < 20; i++) await Promise.all([onBig(), onSmall()]); // warm-up: connections, plans
    // Interleaved, so a neighbour's load on the machine weighs on both alike.
    const bigTimes: number[] = [];
    const smallTimes: number[] = [];
    let returned = 0;
    for (let i = 0; i < queries; i++) {
      const b = await onBig();
      bigTimes.push(b.elapsed);
      returned += b.rows;
      smallTimes.push((await onSmall()).elapsed);
    }
    const [bigClient, smallClient] = await Promise.all([connect(databaseUrl(serverUrl, "bench_history_big")), connect(databaseUrl(serverUrl, "bench_history_baseline"))]);
    const bigRaw: number[] = [];
    const smallRaw: number[] = [];
    try {
      const [rawBig, rawSmall] = [rawQuery(bigClient, bigFilled, random), rawQuery(smallClient, smallFilled, random)];
      for (let i = 0; i < queries; i++) {
        bigRaw.push((await rawBig()).elapsed);
        smallRaw.push((await rawSmall()).elapsed);
      }
    } finally {
      await Promise.all([bigClient.end(), smallClient.end()]);
    }
    const line = (label: string, t: ReturnType<typeof summary>) => `  ${label}: p50 ${ms(t.p50)}  p99 ${ms(t.p99)}  max ${ms(t.max)}`;
    const [b, s, br, sr] = [summary(bigTimes), summary(smallTimes), summary(bigRaw), summary(smallRaw)];
    console.log(`  query: ${queries} × 30 days of one asset on one venue (page of ${PAGE} + count), ${Math.round(returned / queries)} rows each on average`);
    console.log(line(`store    (${bigFilled.count.toLocaleString("en")} rows), through Prisma`, b));
    console.log(line(`baseline (${smallFilled.count.toLocaleString("en")} rows), through Prisma`, s));
    console.log(line(`store, the driver alone   `, br));
    console.log(line(`baseline, the driver alone`, sr));
    console.log(`  ratio store/baseline: through Prisma p50 ${(b.p50 / s.p50).toFixed(2)} p99 ${(b.p99 / s.p99).toFixed(2)}; the driver alone p50 ${(br.p50 / sr.p50).toFixed(2)} p99 ${(br.p99 / sr.p99).toFixed(2)}`);
    console.log(`  p99 target < ${TARGET_P99_MS} ms through Prisma: ${b.p99 < TARGET_P99_MS ? "MET" : "MISSED"}; load at end ${load()}`);
    const analyzed = await big.db.$queryRawUnsafe<{ "QUERY PLAN": string }[]>(
      `EXPLAIN (ANALYZE, BUFFERS, FORMAT TEXT) SELECT * FROM "FundingRate" WHERE exchange = 'venue02' AND base = 'A0000'
         AND time >= $1::timestamp(3) AND time <= $2::timestamp(3) ORDER BY time, market LIMIT ${PAGE}`,
      new Date(bigFilled.end - WINDOW_DAYS * DAY).toISOString(),
      new Date(bigFilled.end).toISOString(),
    );
    console.log(`  an hourly market's 30 days: ${analyzed.map((r) => r["QUERY PLAN"].trim()).join(" | ")}`);
    const plan = await big.db.$queryRawUnsafe<{ "QUERY PLAN": string }[]>(
      `EXPLAIN SELECT * FROM "FundingRate" WHERE exchange = 'venue01' AND base = 'A0001'
         AND time >= $1::timestamp(3) AND time <= $2::timestamp(3) ORDER BY time, market LIMIT ${PAGE}`,
      new Date(bigFilled.end - WINDOW_DAYS * DAY).toISOString(),
      new Date(bigFilled.end).toISOString(),
    );
    console.log(`  plan: ${plan.map((r) => r["QUERY PLAN"].trim()).join(" | ")}`);
  } finally {
    for (const database of databases) await database.close().catch(() => undefined);
    server?.stop();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
