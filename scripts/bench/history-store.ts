// `npm run bench:history-store -- --rows=N`: the settlement store at scale. Fills a private
// PostgreSQL (started as .ci/run starts CI's, default settings; or the server DATABASE_URL names)
// with N synthetic settlements through the real schema (its migrations, its monthly partitions):
// 45 venues × 600 markets, a third each settling every 1, 4 and 8 hours, the older half marked
// "backfill". Each month is loaded by one server-side INSERT … SELECT into a bare table, in the order
// live rounds write (every market's settlement of an hour together, so one market's rows spread over
// as many heap pages as it has rows: the layout least kind to the query), indexed, and attached as
// the month's partition, several months at a time (the bench's databases use the C collation, which
// sorts text keys as bytes: see createDatabase). Then VACUUM ANALYZE, as autovacuum leaves a table,
// and the newest --tail-hours written through the parent after it, as live rounds write between two
// autovacuums of the live month (their pages are not yet all-visible). Then, --runs times, the query
// GET /v1/funding-rates makes (the live Market's settlementPage: one asset on one venue, 30 days, its
// max page of 1,000 rows plus the count) at random markets and ends, through Prisma and through the
// driver alone, interleaved with the same query on a small table filled alike (the baseline), and
// the last 30 days (ending at the newest settlement), and prints p50/p99/max of each run, the best
// and worst run, their ratio to the baseline, the bytes per row of the table and of each index,
// which indexes Prisma's statements used, and the plans.
//
//   node --import tsx scripts/bench/history-store.ts [--rows=10000000] [--queries=500] [--runs=3] [--baseline-rows=300000] [--tail-hours=8] [--load-sessions=3]
import os from "node:os";
import pg from "pg";
import type { Db } from "@/lib/db";
import { openDatabase, type OpenDatabase } from "@/lib/db/open-database";
import type { SqlRunner, SqlStatement } from "@/lib/db/direct-sql";
import { ensureSettlementPartitions, monthsBetween, nextMonth, PARTITION_STORAGE, partitionName } from "@/lib/history/store/settlement-partitions";
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
const runs = intOption("runs", 3);
const tailHours = intOption("tail-hours", 8);
const loadSessions = intOption("load-sessions", 3);

const ms = (value: number) => `${value.toFixed(2)} ms`;
const load = () => os.loadavg().map((l) => l.toFixed(2)).join(" ");
const sqlTime = (at: number) => `(to_timestamp(${at / 1000}) AT TIME ZONE 'UTC')`;

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
 * The settlements of the hours [from, to) of `markets` markets a venue, in live rounds' order (hour,
 * venue, market): one series read in order, so the rows reach the table in that order without a sort.
 */
function settlementsSelect(from: number, to: number, markets: number, backfillBefore: number): string {
  const hours = (to - from) / HOUR;
  const perHour = VENUES * markets;
  return `
    SELECT 'venue' || lpad(k.v::text, 2, '0'), 'A' || lpad(k.m::text, 4, '0') || '/USDT:USDT', 'A' || lpad(k.m::text, 4, '0'),
           x.t, (random() - 0.4) * 0.001, x.hours, CASE WHEN x.t < ${sqlTime(backfillBefore)} THEN 'backfill' ELSE 'observed' END
    FROM generate_series(0::bigint, ${hours * perHour - 1}) AS n,
         LATERAL (SELECT n / ${perHour} AS h, ((n / ${markets}) % ${VENUES})::int AS v, (n % ${markets})::int AS m) AS k,
         LATERAL (SELECT ${sqlTime(from)} + k.h * interval '1 hour' AS t, (ARRAY[${INTERVALS.join(",")}])[k.m % ${INTERVALS.length} + 1] AS hours) AS x
    WHERE ((${from / HOUR} + k.h) % 24) % x.hours = 0`;
}

const COLUMNS = `(exchange, market, base, time, rate, "intervalHours", source)`;

/**
 * The statements giving a bare table the parent's primary key and indexes, from the parent's own
 * definitions: ATTACH PARTITION then adopts them instead of building them under the parent's lock.
 */
async function indexStatements(client: pg.Client, table: string): Promise<string[]> {
  const { rows } = await client.query<{ statement: string }>(
    `SELECT 'ALTER TABLE "${table}" ADD ' || pg_get_constraintdef(c.oid) AS statement
     FROM pg_constraint c WHERE c.conrelid = '"FundingRate"'::regclass AND c.contype = 'p'
     UNION ALL
     SELECT regexp_replace(pg_get_indexdef(i.indexrelid), '^CREATE INDEX \\S+ ON ONLY \\S+', 'CREATE INDEX ON "${table}"')
     FROM pg_index i WHERE i.indrelid = '"FundingRate"'::regclass AND NOT i.indisprimary`,
  );
  return rows.map((r) => r.statement);
}

/**
 * About `target` rows ending at the last 8-hour boundary: 600 markets a venue over as many days as
 * that takes, or fewer markets over the 31 days a 30-day query needs. Each month's rows but the
 * newest `tailHours` go into a bare table by one statement, then its indexes are built (sorted once,
 * instead of row by row), `loadSessions` months at a time, and it is attached as the month's
 * partition; the tail goes in after the vacuum through the partitioned table and its indexes, as
 * live rounds write it.
 */
async function fill(url: string, target: number, label: string): Promise<Filled> {
  const markets = Math.max(3, Math.min(MARKETS, Math.round((MARKETS * target) / (rowsPerDay(MARKETS) * (WINDOW_DAYS + 1)))));
  const days = Math.max(WINDOW_DAYS + 1, Math.ceil(target / rowsPerDay(markets)));
  const end = Math.floor(Date.now() / (8 * HOUR)) * 8 * HOUR;
  const start = end - days * DAY;
  const tailFrom = end - Math.min(tailHours, 24 * days) * HOUR;
  const backfillBefore = start + Math.floor(days / 2) * DAY;
  const client = await connect(url);
  try {
    const started = performance.now();
    const months = monthsBetween(start, tailFrom - 1);
    let attached = 0;
    const queue = [...months];
    const loader = async () => {
      const session = await connect(url);
      try {
        // The load's own sessions only: index builds sort in memory instead of in temporary files.
        // The server and the queries keep PostgreSQL's default settings.
        await session.query(`SET maintenance_work_mem = '512MB'`);
        for (let month = queue.shift(); month !== undefined; month = queue.shift()) {
          const name = partitionName(month);
          const [lo, hi] = [sqlTime(month), sqlTime(nextMonth(month))];
          await session.query(`CREATE TABLE "${name}" (LIKE "FundingRate") WITH (${PARTITION_STORAGE})`);
          await session.query(`INSERT INTO "${name}" ${COLUMNS} ${settlementsSelect(Math.max(start, month), Math.min(tailFrom, nextMonth(month)), markets, backfillBefore)}`);
          for (const statement of await indexStatements(session, name)) await session.query(statement);
          // Proves the partition's bounds, so attaching does not scan the month under the parent's lock.
          await session.query(`ALTER TABLE "${name}" ADD CONSTRAINT "${name}_bounds" CHECK (time >= ${lo} AND time < ${hi})`);
          await session.query(`ALTER TABLE "FundingRate" ATTACH PARTITION "${name}" FOR VALUES FROM (${lo}) TO (${hi})`);
          await session.query(`ALTER TABLE "${name}" DROP CONSTRAINT "${name}_bounds"`);
          attached++;
          const elapsed = (performance.now() - started) / 1000;
          process.stdout.write(`\r\x1b[K  ${label}: ${attached}/${months.length} months loaded and indexed, ${elapsed.toFixed(0)} s, load ${load()}   `);
        }
      } finally {
        await session.end();
      }
    };
    await Promise.all(Array.from({ length: Math.min(loadSessions, months.length) }, loader));
    const loaded = (performance.now() - started) / 1000;
    // What autovacuum does to a table once written: statistics for the planner, and the visibility
    // map that lets an index-only scan skip the heap.
    const vacuumStarted = performance.now();
    await client.query(`VACUUM ANALYZE "FundingRate"`);
    const vacuumed = (performance.now() - vacuumStarted) / 1000;
    const runner: SqlRunner = { query: async <Row>(st: SqlStatement) => (await client.query(st.text, st.values as unknown[])).rows as Row[] };
    await ensureSettlementPartitions(runner, tailFrom, end);
    await client.query(`INSERT INTO "FundingRate" ${COLUMNS} ${settlementsSelect(tailFrom, end, markets, backfillBefore)}`);
    const [{ count }] = (await client.query<{ count: string }>(`SELECT count(*) FROM "FundingRate"`)).rows as [{ count: string }];
    console.log(
      `\r\x1b[K  ${label}: ${Number(count).toLocaleString("en")} rows over ${days} days (${VENUES} venues × ${markets} markets) in ${months.length} month partitions, ` +
        `loaded and indexed in ${loaded.toFixed(0)} s by ${Math.min(loadSessions, months.length)} sessions (${Math.round(Number(count) / loaded).toLocaleString("en")} rows/s), ` +
        `vacuum analyze ${vacuumed.toFixed(0)} s, then the newest ${(end - tailFrom) / HOUR} hours through the indexes; ` +
        `layout: live rounds' order (every market of an hour together); load ${load()}`,
    );
    return { markets, start, end, count: Number(count) };
  } finally {
    await client.end();
  }
}

async function storage(db: Db, count: number) {
  const [sizes] = await db.$queryRawUnsafe<{ total: bigint; heap: bigint; partitions: bigint }[]>(
    `SELECT sum(pg_total_relation_size(relid))::bigint AS total, sum(pg_table_size(relid))::bigint AS heap,
            (count(*) FILTER (WHERE isleaf))::bigint AS partitions
     FROM pg_partition_tree('"FundingRate"')`,
  );
  // Each index of the parent is partitioned alike: its size is its partitions' sum.
  const indexes = await db.$queryRawUnsafe<{ name: string; bytes: bigint }[]>(
    `SELECT i.indexrelid::regclass::text AS name, (SELECT sum(pg_relation_size(t.relid)) FROM pg_partition_tree(i.indexrelid) AS t)::bigint AS bytes
     FROM pg_index i WHERE i.indrelid = '"FundingRate"'::regclass ORDER BY 1`,
  );
  const per = (bytes: bigint) => (Number(bytes) / count).toFixed(1);
  console.log(
    `  storage: ${(Number(sizes!.total) / 2 ** 30).toFixed(2)} GiB in ${sizes!.partitions} partitions; bytes per row ${per(sizes!.total)}: ` +
      `table ${per(sizes!.heap)}, ${indexes.map((index) => `${index.name.replaceAll('"', "")} ${per(index.bytes)}`).join(", ")}`,
  );
}

type Query = () => Promise<{ elapsed: number; rows: number }>;

/** A random venue and market, and the end of a 30-day window: random, or the newest settlement's hour. */
function pick(filled: Filled, random: () => number, latest: boolean) {
  const v = Math.floor(random() * VENUES);
  const m = Math.floor(random() * filled.markets);
  const to = latest ? filled.end - HOUR : filled.end - Math.floor(random() * ((filled.end - filled.start) / HOUR - WINDOW_DAYS * 24)) * HOUR;
  return { exchange: `venue${String(v).padStart(2, "0")}`, base: `A${String(m).padStart(4, "0")}`, from: new Date(to - WINDOW_DAYS * DAY), to: new Date(to) };
}

/** GET /v1/funding-rates' read (lib/market/ingest/live-market.ts settlementPage), through Prisma. */
function settlementPageQuery(db: Db, filled: Filled, random: () => number, latest = false): Query {
  return async () => {
    const p = pick(filled, random, latest);
    const where = { exchange: p.exchange, base: p.base, time: { gte: p.from, lte: p.to } };
    const t0 = performance.now();
    const [found, total] = await db.$transaction([
      db.fundingRate.findMany({ where, orderBy: [{ time: "asc" }, { market: "asc" }], skip: 0, take: PAGE }),
      db.fundingRate.count({ where }),
    ]);
    const elapsed = performance.now() - t0;
    if (found.length !== Math.min(PAGE, total) || total === 0) throw new Error(`page of ${found.length} rows for a total of ${total}`);
    return { elapsed, rows: found.length };
  };
}

const RAW_WHERE = `exchange = $1 AND base = $2 AND time >= $3::timestamp(3) AND time <= $4::timestamp(3)`;
const RAW_PAGE = `SELECT exchange, market, base, time, rate, "intervalHours", source FROM "FundingRate" WHERE ${RAW_WHERE} ORDER BY time, market LIMIT ${PAGE}`;
const RAW_COUNT = `SELECT count(*) FROM "FundingRate" WHERE ${RAW_WHERE}`;

/**
 * The same two statements sent by the driver alone, without Prisma: what the database itself takes,
 * apart from this process's share of a busy machine.
 */
function rawQuery(client: pg.Client, filled: Filled, random: () => number): Query {
  return async () => {
    const p = pick(filled, random, false);
    const values = [p.exchange, p.base, p.from.toISOString(), p.to.toISOString()];
    const t0 = performance.now();
    const page = await client.query(RAW_PAGE, values);
    await client.query(RAW_COUNT, values);
    return { elapsed: performance.now() - t0, rows: page.rowCount ?? 0 };
  };
}

async function connect(url: string): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  return client;
}

type Summary = { p50: number; p99: number; max: number };
function summary(times: number[]): Summary {
  const sorted = [...times].sort((a, b) => a - b);
  return { p50: percentile(sorted, 50), p99: percentile(sorted, 99), max: sorted.at(-1) ?? Number.NaN };
}

/** `queries` of `a`, each followed by one of `b` when given, so a neighbour's load weighs on both alike. */
async function interleaved(a: Query, b?: Query): Promise<{ a: Summary; b?: Summary; rows: number }> {
  const ta: number[] = [];
  const tb: number[] = [];
  let returned = 0;
  for (let i = 0; i < queries; i++) {
    const r = await a();
    ta.push(r.elapsed);
    returned += r.rows;
    if (b) tb.push((await b()).elapsed);
  }
  return { a: summary(ta), b: b ? summary(tb) : undefined, rows: returned / queries };
}

/**
 * The store's scans so far: per index (its partitions' counts summed under the parent's suffix), the
 * sequential scans, and the rows read from the heap by index scans (an index-only scan's heap fetches).
 */
interface ScanCounts {
  indexes: Map<string, number>;
  seqScans: number;
  heapFetches: number;
}
async function scanCounts(client: pg.Client): Promise<ScanCounts> {
  const indexes = await client.query<{ name: string; scans: string }>(
    `SELECT regexp_replace(indexrelname, '^FundingRate_(p[0-9]+|default)_', '') AS name, sum(idx_scan)::text AS scans
     FROM pg_stat_user_indexes WHERE relname LIKE 'FundingRate%' GROUP BY 1`,
  );
  const { rows } = await client.query<{ seq: string; fetched: string }>(
    `SELECT coalesce(sum(seq_scan), 0)::text AS seq, coalesce(sum(idx_tup_fetch), 0)::text AS fetched FROM pg_stat_user_tables WHERE relname LIKE 'FundingRate%'`,
  );
  return { indexes: new Map(indexes.rows.map((r) => [r.name, Number(r.scans)])), seqScans: Number(rows[0]!.seq), heapFetches: Number(rows[0]!.fetched) };
}

function scansBetween(before: ScanCounts, after: ScanCounts, statements: number): string {
  const indexes = [...after.indexes]
    .map(([name, scans]) => [name, (scans - (before.indexes.get(name) ?? 0)) / statements] as const)
    .filter(([, scans]) => scans > 0)
    .map(([name, scans]) => `${name} ${scans.toFixed(2)}`);
  return (
    `index scans ${indexes.join(", ") || "none"}; sequential scans ${((after.seqScans - before.seqScans) / statements).toFixed(2)}; ` +
    `heap fetches ${((after.heapFetches - before.heapFetches) / statements).toFixed(2)}`
  );
}

async function createDatabase(serverUrl: string, name: string): Promise<OpenDatabase> {
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  try {
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    // The C collation: text keys compare as bytes, so building the indexes of a month's 9–19 M rows
    // sorts several times faster than under the server's locale. A page's read compares a few keys
    // per index descent, where the collation is immaterial; index sizes are the same.
    await admin.query(`CREATE DATABASE ${name} TEMPLATE template0 LOCALE 'C' ENCODING 'UTF8'`);
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

async function explain(client: pg.Client, label: string, statement: string, values: string[]) {
  const { rows } = await client.query<{ "QUERY PLAN": string }>(`EXPLAIN (ANALYZE, BUFFERS, COSTS OFF) ${statement}`, values);
  console.log(`  ${label}: ${rows.map((r) => r["QUERY PLAN"].trim()).join(" | ")}`);
}

async function main() {
  const given = process.env.DATABASE_URL;
  const server = given ? null : await startPrivatePostgres("fods-bench-history");
  const serverUrl = given ?? server!.url;
  console.log(`bench:history-store: ${rows.toLocaleString("en")} rows on ${given ? `the server DATABASE_URL names (${new URL(given).host})` : `a private PostgreSQL in ${server!.dataDir}`}`);
  console.log(`  machine: ${os.cpus().length} cores, ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB; load at start ${load()}`);
  const databases: OpenDatabase[] = [];
  const clients: pg.Client[] = [];
  try {
    const big = await createDatabase(serverUrl, "bench_history_big");
    databases.push(big);
    const small = await createDatabase(serverUrl, "bench_history_baseline");
    databases.push(small);
    const smallFilled = await fill(databaseUrl(serverUrl, "bench_history_baseline"), baselineRows, "baseline");
    const bigFilled = await fill(databaseUrl(serverUrl, "bench_history_big"), rows, "store");
    await storage(big.db, bigFilled.count);
    const [bigClient, smallClient] = await Promise.all([connect(databaseUrl(serverUrl, "bench_history_big")), connect(databaseUrl(serverUrl, "bench_history_baseline"))]);
    clients.push(bigClient, smallClient);

    let seed = 42;
    const random = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
    const onBig = settlementPageQuery(big.db, bigFilled, random);
    const onSmall = settlementPageQuery(small.db, smallFilled, random);
    const latestOnBig = settlementPageQuery(big.db, bigFilled, random, true);
    const [rawBig, rawSmall] = [rawQuery(bigClient, bigFilled, random), rawQuery(smallClient, smallFilled, random)];
    for (let i = 0; i < 20; i++) await Promise.all([onBig(), onSmall(), latestOnBig(), rawBig(), rawSmall()]); // warm-up: connections, plans

    const line = (label: string, t: Summary) => `    ${label}: p50 ${ms(t.p50)}  p99 ${ms(t.p99)}  max ${ms(t.max)}`;
    console.log(`  query: ${runs} runs of ${queries} × 30 days of one asset on one venue (page of ${PAGE} + count)`);
    const results: { prisma: Summary; prismaBase: Summary; raw: Summary; rawBase: Summary; latest: Summary }[] = [];
    for (let run = 1; run <= runs; run++) {
      const before = run === 1 ? await scanCounts(bigClient) : null;
      const prisma = await interleaved(onBig, onSmall);
      const latest = await interleaved(latestOnBig);
      if (before) {
        // Statistics reach the shared counters when a backend has been idle a moment (at most 10 s).
        await new Promise((resolve) => setTimeout(resolve, 11_000));
        // A scan of the time index is the planner's, not the plan's: it reads a range's actual end
        // there when the range runs past the statistics' newest value (the rows written since ANALYZE).
        console.log(`  Prisma's page + count, per query (run 1): ${scansBetween(before, await scanCounts(bigClient), 2 * queries)}`);
      }
      const raw = await interleaved(rawBig, rawSmall);
      results.push({ prisma: prisma.a, prismaBase: prisma.b!, raw: raw.a, rawBase: raw.b!, latest: latest.a });
      console.log(`  run ${run} (${Math.round(prisma.rows)} rows a page on average; load ${load()}):`);
      console.log(line(`store    (${bigFilled.count.toLocaleString("en")} rows), through Prisma`, prisma.a));
      console.log(line(`baseline (${smallFilled.count.toLocaleString("en")} rows), through Prisma`, prisma.b!));
      console.log(line(`store, the last 30 days, through Prisma`, latest.a));
      console.log(line(`store, the driver alone   `, raw.a));
      console.log(line(`baseline, the driver alone`, raw.b!));
    }
    const span = (pick: (r: (typeof results)[number]) => Summary, key: "p50" | "p99") => {
      const values = results.map((r) => pick(r)[key]);
      return `${ms(Math.min(...values))} – ${ms(Math.max(...values))}`;
    };
    const worstRatio = (a: (r: (typeof results)[number]) => Summary, b: (r: (typeof results)[number]) => Summary) =>
      Math.max(...results.map((r) => a(r).p99 / b(r).p99)).toFixed(2);
    console.log(`  over ${runs} runs, best – worst:`);
    console.log(`    through Prisma:        p50 ${span((r) => r.prisma, "p50")}, p99 ${span((r) => r.prisma, "p99")} (baseline p99 ${span((r) => r.prismaBase, "p99")}; worst ratio ${worstRatio((r) => r.prisma, (r) => r.prismaBase)})`);
    console.log(`    the last 30 days:      p50 ${span((r) => r.latest, "p50")}, p99 ${span((r) => r.latest, "p99")}`);
    console.log(`    the driver alone:      p50 ${span((r) => r.raw, "p50")}, p99 ${span((r) => r.raw, "p99")} (baseline p99 ${span((r) => r.rawBase, "p99")}; worst ratio ${worstRatio((r) => r.raw, (r) => r.rawBase)})`);
    const worst = Math.max(...results.map((r) => Math.max(r.prisma.p99, r.latest.p99)));
    console.log(`  p99 target < ${TARGET_P99_MS} ms through Prisma, worst run: ${worst < TARGET_P99_MS ? "MET" : "MISSED"} (${ms(worst)}); load at end ${load()}`);

    // An hourly market (A0000), the newest 30 days (the not yet vacuumed tail included) and 30 days
    // of the oldest month: both statements, with what they read.
    const windows = [
      ["the last 30 days", bigFilled.end - HOUR],
      ["30 days from the start", bigFilled.start + WINDOW_DAYS * DAY],
    ] as const;
    for (const [label, to] of windows) {
      const values = ["venue02", "A0000", new Date(to - WINDOW_DAYS * DAY).toISOString(), new Date(to).toISOString()];
      await explain(bigClient, `page, an hourly market, ${label}`, RAW_PAGE, values);
      await explain(bigClient, `count, an hourly market, ${label}`, RAW_COUNT, values);
    }
  } finally {
    for (const client of clients) await client.end().catch(() => undefined);
    for (const database of databases) await database.close().catch(() => undefined);
    server?.stop();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
