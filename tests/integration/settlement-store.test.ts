import type { PGlite } from "@electric-sql/pglite";
import { PrismaPGlite } from "pglite-prisma-adapter";
import { afterAll, describe, expect, it } from "vitest";
import { applyMigrations } from "@/lib/db/migrations";
import { directSql, type SqlRunner } from "@/lib/db/direct-sql";
import { PrismaClient } from "@/lib/db/generated/client";
import { ensureSettlementPartitions, settlementMonths } from "@/lib/history/store/settlement-partitions";
import { applyRetention } from "@/lib/market/ingest/apply-retention";
import { liveMarket } from "@/lib/market/ingest/live-market";
import { createBlankPglite } from "@/tests/support/test-database";
import { testDatabaseForFile } from "@/tests/support/test-database-for-file";

const database = testDatabaseForFile();
const DAY = 86_400_000;

/** Settlements of `market` on binance at `times`, as the live rounds' insert writes them. */
async function insert(sql: SqlRunner, market: string, times: number[]): Promise<void> {
  await sql.query({
    text: `INSERT INTO "FundingRate" (exchange, market, base, time, rate, "intervalHours", source)
           SELECT 'binance', $1, split_part($1, '/', 1), t::timestamp(3), 0.0001, 8, 'backfill' FROM unnest($2::text[]) AS t`,
    values: [market, times.map((t) => new Date(t).toISOString())],
  });
}

/** Where each settlement of `market` sits: its partition, oldest first. */
async function partitionsOf(sql: SqlRunner, market: string): Promise<string[]> {
  const rows = await sql.query<{ partition: string }>({
    text: `SELECT tableoid::regclass::text AS partition FROM "FundingRate" WHERE market = $1 ORDER BY time`,
    values: [market],
  });
  return rows.map((r) => r.partition.replaceAll('"', ""));
}

describe("settlement retention", () => {
  it("keeps every settlement by default, and with a retention drops whole months older than it, never the default partition", async () => {
    const { db } = database;
    const sql = directSql(db);
    const [jan, feb] = [Date.UTC(2024, 0, 15, 8), Date.UTC(2024, 1, 20, 16)];
    await ensureSettlementPartitions(sql, jan, feb);
    await insert(sql, "RET/USDT:USDT", [jan, jan + 8 * 3_600_000, feb]);
    // A month without a partition (made after this process's first call): the row waits in the default.
    const stray = Date.UTC(2010, 4, 1);
    await insert(sql, "STRAY/USDT:USDT", [stray]);
    expect(await partitionsOf(sql, "RET/USDT:USDT")).toEqual(["FundingRate_p202401", "FundingRate_p202401", "FundingRate_p202402"]);
    expect(await partitionsOf(sql, "STRAY/USDT:USDT")).toEqual(["FundingRate_default"]);

    // An interval change found in January's history, and one in February's.
    const change = (effectiveAt: number) => ({
      exchange: "binance", market: "RET/USDT:USDT", base: "RET", effectiveAt: new Date(effectiveAt),
      fromHours: 8, toHours: 4, source: "history", detectedAt: new Date(effectiveAt),
    });
    await db.fundingIntervalChange.createMany({ data: [change(jan), change(feb)] });
    const changesOf = async () => (await db.fundingIntervalChange.findMany({ where: { market: "RET/USDT:USDT" }, orderBy: { effectiveAt: "asc" } })).map((c) => c.effectiveAt.getTime());

    // The hourly retention no longer reaches settlements or interval changes, and none is set: everything stays.
    const now = new Date(Date.UTC(2024, 2, 10));
    const kept = await applyRetention(db, { rawDays: 1, hourlyDays: 1 }, now);
    expect(kept.droppedSettlementMonths).toEqual([]);
    expect(kept.deletedIntervalChanges).toBe(0);
    expect(await db.fundingRate.count({ where: { market: { in: ["RET/USDT:USDT", "STRAY/USDT:USDT"] } } })).toBe(4);
    expect(await changesOf()).toEqual([jan, feb]);

    // 30 days before 10 March is 9 February: January ended before it, February did not.
    const monthsBefore = (await settlementMonths(sql)).map((m) => m.name);
    const result = await applyRetention(db, { rawDays: 1, hourlyDays: 730, settlementDays: 30 }, now);
    expect(result.droppedSettlementMonths).toContain("FundingRate_p202401");
    expect(result.droppedSettlementMonths).not.toContain("FundingRate_p202402");
    // Interval changes older than the settlement retention go with it.
    expect(result.deletedIntervalChanges).toBe(1);
    expect(await changesOf()).toEqual([feb]);
    expect(result.droppedSettlementMonths).toEqual(monthsBefore.filter((name) => name <= "FundingRate_p202401"));
    const monthsAfter = (await settlementMonths(sql)).map((m) => m.name);
    expect(monthsAfter).toEqual(monthsBefore.filter((name) => name > "FundingRate_p202401"));
    expect(await sql.query({ text: `SELECT to_regclass('"FundingRate_p202401"') AS t`, values: [] })).toEqual([{ t: null }]);
    expect(await partitionsOf(sql, "RET/USDT:USDT")).toEqual(["FundingRate_p202402"]);
    // The default partition's row is older than the retention and stays: only months are dropped.
    expect(await partitionsOf(sql, "STRAY/USDT:USDT")).toEqual(["FundingRate_default"]);

    // Again: nothing more to drop. A writer asking for the dropped month gets it made anew.
    expect((await applyRetention(db, { rawDays: 1, hourlyDays: 730, settlementDays: 30 }, now)).droppedSettlementMonths).toEqual([]);
    await ensureSettlementPartitions(sql, jan, jan);
    await insert(sql, "RET/USDT:USDT", [jan]);
    expect(await partitionsOf(sql, "RET/USDT:USDT")).toEqual(["FundingRate_p202401", "FundingRate_p202402"]);
  }, 60_000);
});

describe("GET /v1/funding-rates' read", () => {
  let pglite: PGlite;
  afterAll(() => pglite?.close());

  it("is served by index-only scans of the covering index: the page without a sort, the count from the index alone", async () => {
    pglite = await createBlankPglite();
    await applyMigrations(new PrismaPGlite(pglite));
    const statements: { query: string; params: unknown[] }[] = [];
    const db = new PrismaClient({ adapter: new PrismaPGlite(pglite), log: [{ emit: "event", level: "query" }] });
    db.$on("query", (event) => statements.push({ query: event.query, params: JSON.parse(event.params) as unknown[] }));
    const end = Date.UTC(2026, 5, 15);
    const start = end - 60 * DAY;
    await ensureSettlementPartitions({ query: async <Row>(s: { text: string; values: readonly unknown[] }) => (await pglite.query<Row>(s.text, [...s.values])).rows }, start, end);
    // 3 venues × 40 assets, two markets each (USDT and USDC margined), hourly over 60 days, in live rounds' order.
    await pglite.query(`
      INSERT INTO "FundingRate" (exchange, market, base, time, rate, "intervalHours", source)
      SELECT 'venue' || v, 'A' || a || '/' || q || ':' || q, 'A' || a, to_timestamp(${start / 1000} + h * 3600) AT TIME ZONE 'UTC', 0.0001, 1, 'observed'
      FROM generate_series(0, ${60 * 24 - 1}) AS h, generate_series(1, 3) AS v, generate_series(1, 40) AS a, unnest(ARRAY['USDT', 'USDC']) AS q
      ORDER BY h, v, a, q`);
    await pglite.exec(`VACUUM ANALYZE "FundingRate"`);

    const market = liveMarket(async () => db, undefined as never, 60_000, undefined as never);
    statements.length = 0;
    const page = await market.settlementPage({ exchange: "venue2", symbol: "A7", from: new Date(end - 30 * DAY), to: new Date(end), limit: 1_000, offset: 0 });
    expect(page.total).toBe(2 * 30 * 24);
    expect(page.items).toHaveLength(1_000);
    expect(page.items.map((s) => s.market).slice(0, 2)).toEqual(["A7/USDC:USDC", "A7/USDT:USDT"]);

    const issued = statements.filter((s) => s.query.includes("FundingRate"));
    expect(issued).toHaveLength(2);
    for (const statement of issued) {
      const { rows } = await pglite.query<{ "QUERY PLAN": string }>(`EXPLAIN (ANALYZE, COSTS OFF) ${statement.query}`, statement.params);
      const plan = rows.map((r) => r["QUERY PLAN"]).join("\n");
      expect(plan).toMatch(/Index Only Scan using "FundingRate_p202605_exchange_base_time_market_\w+"/);
      expect(plan).toMatch(/Index Only Scan using "FundingRate_p202606_exchange_base_time_market_\w+"/);
      expect(plan).not.toMatch(/Seq Scan|Bitmap|Sort/);
      expect([...plan.matchAll(/Heap Fetches: (\d+)/g)].map((m) => Number(m[1]))).toEqual([0, 0]);
    }
    await db.$disconnect();
  }, 120_000);
});
