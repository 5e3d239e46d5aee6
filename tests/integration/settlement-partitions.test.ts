import { cp, mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import type { SqlMigrationAwareDriverAdapterFactory } from "@prisma/driver-adapter-utils";
import { PrismaPg } from "@prisma/adapter-pg";
import pg from "pg";
import { PrismaPGlite } from "pglite-prisma-adapter";
import { describe, expect, it } from "vitest";
import { applyMigrations, defaultMigrationPaths, migrationNames } from "@/lib/db/migrations";
import { directSql, pgliteDirectSql, type SqlRunner } from "@/lib/db/direct-sql";
import { ensureSettlementPartitions } from "@/lib/history/store/settlement-partitions";
import { createBlankPglite } from "@/tests/support/test-database";
import { testDatabaseForFile } from "@/tests/support/test-database-for-file";

const database = testDatabaseForFile();
const MARCH_2019 = Date.UTC(2019, 2, 10, 8);

/** Where each stored settlement of `market` sits: its partition's name by time. */
async function partitionsOf(sql: SqlRunner, market: string): Promise<Record<string, string>> {
  const rows = await sql.query<{ time: Date; partition: string }>({
    text: `SELECT time, tableoid::regclass::text AS partition FROM "FundingRate" WHERE market = $1 ORDER BY time`,
    values: [market],
  });
  return Object.fromEntries(rows.map((r) => [r.time.toISOString(), r.partition.replaceAll('"', "")]));
}

/** The live rounds' insert (lib/market/ingest/store-round.ts): idempotent, so its count says what was new. */
async function insert(sql: SqlRunner, market: string, times: number[], source = "backfill"): Promise<number> {
  const rows = await sql.query({
    text: `
    INSERT INTO "FundingRate" (exchange, market, base, time, rate, "intervalHours", source)
    SELECT 'binance', $1, split_part($1, '/', 1), t::timestamp(3), 0.0001, 8, $3
    FROM unnest($2::text[]) AS t
    ON CONFLICT DO NOTHING
    RETURNING 1`,
    values: [market, times.map((t) => new Date(t).toISOString()), source],
  });
  return rows.length;
}

describe("FundingRate's month partitions", () => {
  it("takes a row of any month, moves it into its month once the month is made, and keeps the key unique", async () => {
    const sql = directSql(database.db);
    const now = Date.now();
    expect(await insert(sql, "OLD/USDT:USDT", [MARCH_2019, now])).toBe(2);
    expect(Object.values(await partitionsOf(sql, "OLD/USDT:USDT"))).toEqual(["FundingRate_default", "FundingRate_default"]);

    await ensureSettlementPartitions(sql, MARCH_2019, MARCH_2019);
    const month = (at: number) => `FundingRate_p${new Date(at).toISOString().slice(0, 7).replace("-", "")}`;
    // The first call also made the month of every row the default held, so both moved out.
    expect(await partitionsOf(sql, "OLD/USDT:USDT")).toEqual({
      [new Date(MARCH_2019).toISOString()]: "FundingRate_p201903",
      [new Date(now).toISOString()]: month(now),
    });
    // Idempotent inserts: the same settlements again add nothing, a new one lands in its month.
    expect(await insert(sql, "OLD/USDT:USDT", [MARCH_2019, now])).toBe(0);
    expect(await insert(sql, "OLD/USDT:USDT", [MARCH_2019 + 8 * 3_600_000])).toBe(1);
    expect(Object.values(await partitionsOf(sql, "OLD/USDT:USDT"))).toEqual(["FundingRate_p201903", "FundingRate_p201903", month(now)]);
    await expect(
      database.db.fundingRate.create({ data: { exchange: "binance", market: "OLD/USDT:USDT", base: "OLD", time: new Date(MARCH_2019), rate: 1, intervalHours: 8, source: "observed" } }),
    ).rejects.toThrow(/Unique constraint/);
    expect(await database.db.fundingRate.count({ where: { market: "OLD/USDT:USDT" } })).toBe(3);
  });

  it("makes a month once when two writers ask for it at the same time", async () => {
    const sql = directSql(database.db);
    // Two runners of their own, so neither's cache knows the month: both send the statement.
    const writers = [0, 1].map((): SqlRunner => ({ query: (statement) => sql.query(statement) }));
    const at = Date.UTC(2020, 6, 15);
    await Promise.all(writers.map((w) => ensureSettlementPartitions(w, at, at)));
    expect(await insert(sql, "TWICE/USDT:USDT", [at])).toBe(1);
    expect(Object.values(await partitionsOf(sql, "TWICE/USDT:USDT"))).toEqual(["FundingRate_p202007"]);
  });

  it("the partitioning migration keeps the settlements stored before it", async () => {
    const scratch = await mkdtemp(path.join(os.tmpdir(), "fods-partitions-"));
    const target = await scratchDatabase();
    try {
      const real = defaultMigrationPaths();
      const paths = { schemaPath: real.schemaPath, migrationsDir: path.join(scratch, "migrations") };
      const names = await migrationNames(real.migrationsDir);
      const partitioning = names.find((name) => name.endsWith("_funding_rate_partitions"))!;
      for (const name of names.slice(0, names.indexOf(partitioning))) {
        await cp(path.join(real.migrationsDir, name), path.join(paths.migrationsDir, name), { recursive: true });
      }
      await cp(path.join(real.migrationsDir, "migration_lock.toml"), path.join(paths.migrationsDir, "migration_lock.toml"));
      await applyMigrations(target.adapter(), paths);
      const times = [Date.UTC(2026, 10, 30, 16), Date.UTC(2026, 11, 1, 0)];
      expect(await insert(target.sql, "KEPT/USDT:USDT", times, "observed")).toBe(2);

      await cp(path.join(real.migrationsDir, partitioning), path.join(paths.migrationsDir, partitioning), { recursive: true });
      expect(await applyMigrations(target.adapter(), paths)).toEqual([partitioning]);
      expect(Object.values(await partitionsOf(target.sql, "KEPT/USDT:USDT"))).toEqual(["FundingRate_default", "FundingRate_default"]);
      await ensureSettlementPartitions(target.sql, times[1]!, times[1]!);
      expect(Object.values(await partitionsOf(target.sql, "KEPT/USDT:USDT"))).toEqual(["FundingRate_p202611", "FundingRate_p202612"]);
      expect(await insert(target.sql, "KEPT/USDT:USDT", times)).toBe(0);
    } finally {
      await target.close();
      await rm(scratch, { recursive: true, force: true });
    }
  }, 180_000);
});

/** An empty database of the kind the suite runs on: a new one on DATABASE_URL's server, else an in-memory PGlite. */
async function scratchDatabase(): Promise<{ adapter(): SqlMigrationAwareDriverAdapterFactory; sql: SqlRunner; close(): Promise<void> }> {
  const serverUrl = process.env.DATABASE_URL;
  if (!serverUrl) {
    const pglite = await createBlankPglite();
    return { adapter: () => new PrismaPGlite(pglite), sql: pgliteDirectSql(pglite), close: () => pglite.close() };
  }
  const name = `partitions_${Date.now()}_${process.pid}`;
  const admin = async (text: string) => {
    const client = new pg.Client({ connectionString: serverUrl });
    await client.connect();
    try {
      await client.query(text);
    } finally {
      await client.end();
    }
  };
  await admin(`CREATE DATABASE ${name}`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  const pool = new pg.Pool({ connectionString: url.toString() });
  const sql: SqlRunner = {
    async query<Row>(statement: { text: string; values: readonly unknown[] }) {
      return (await pool.query(statement.text, statement.values as unknown[])).rows as Row[];
    },
  };
  return {
    adapter: () => new PrismaPg(pool),
    sql,
    close: async () => {
      await pool.end();
      await admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    },
  };
}
