import { cp, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import type { PGlite } from "@electric-sql/pglite";
import { PrismaPGlite } from "pglite-prisma-adapter";
import { afterAll, describe, expect, it } from "vitest";
import { createBlankPglite } from "@/tests/support/test-database";
import { applyMigrations, createMigration, defaultMigrationPaths, diffSchemaAgainstMigrations, migrationNames } from "@/lib/db/migrations";

// Empty databases loaded from the prebuilt cluster, not made by initdb: what the history is
// replayed into, or migrated step by step.
const shadows: PGlite[] = [];
async function blankDatabase(): Promise<PGlite> {
  const database = await createBlankPglite();
  shadows.push(database);
  return database;
}
async function shadowFactory() {
  return new PrismaPGlite(await blankDatabase());
}
afterAll(async () => {
  await Promise.all(shadows.map((s) => s.close()));
});

describe("schema.prisma and prisma/migrations", () => {
  it("agree: replaying the history yields exactly the schema (run `npm run db:migration -- <name>` if this fails)", async () => {
    expect(await diffSchemaAgainstMigrations(await shadowFactory())).toBe("");
  }, 180_000);

  it("a schema change without a migration is detected, and db:migration writes the missing one", async () => {
    const scratch = await mkdtemp(path.join(os.tmpdir(), "fods-migrations-"));
    try {
      const real = defaultMigrationPaths();
      const paths = { schemaPath: path.join(scratch, "schema.prisma"), migrationsDir: path.join(scratch, "migrations") };
      await cp(real.migrationsDir, paths.migrationsDir, { recursive: true });
      const schema = await readFile(real.schemaPath, "utf8");
      await writeFile(paths.schemaPath, `${schema}\nmodel DriftProbe {\n  id Int @id\n}\n`);

      const written = await createMigration("drift_probe", await shadowFactory(), paths, new Date("2030-01-02T03:04:05Z"));
      expect(written).toBe("20300102030405_drift_probe");
      expect(await migrationNames(paths.migrationsDir)).toContain(written);
      const sql = await readFile(path.join(paths.migrationsDir, written!, "migration.sql"), "utf8");
      expect(sql).toContain('CREATE TABLE "DriftProbe"');
      expect(await diffSchemaAgainstMigrations(await shadowFactory(), paths)).toBe("");
    } finally {
      await rm(scratch, { recursive: true, force: true });
    }
  }, 180_000);

  it("opportunity_set_items carries the published set over, so an install with only the offline sample keeps serving it", async () => {
    const scratch = await mkdtemp(path.join(os.tmpdir(), "fods-migrations-"));
    const database = await blankDatabase();
    try {
      const real = defaultMigrationPaths();
      const paths = { schemaPath: real.schemaPath, migrationsDir: path.join(scratch, "migrations") };
      const names = await migrationNames(real.migrationsDir);
      const moving = names.find((name) => name.endsWith("_opportunity_set_items"))!;
      for (const name of names.slice(0, names.indexOf(moving))) {
        await cp(path.join(real.migrationsDir, name), path.join(paths.migrationsDir, name), { recursive: true });
      }
      await cp(path.join(real.migrationsDir, "migration_lock.toml"), path.join(paths.migrationsDir, "migration_lock.toml"));
      await applyMigrations(new PrismaPGlite(database), paths);
      await database.exec(`
        INSERT INTO "OpportunitySet" (id, version, "asOf", sample, "updatedAt") VALUES ('live', 1, now(), true, now());
        INSERT INTO "Opportunity" (id, symbol, "longExchange", "shortExchange", apr, "netApr", payload, "updatedAt") VALUES
          ('B-x-y', 'B', 'x', 'y', 2, 1, '{"id": "B-x-y"}', now()),
          ('A-x-y', 'A', 'x', 'y', 3, 2, '{"id": "A-x-y"}', now());`);

      await cp(path.join(real.migrationsDir, moving), path.join(paths.migrationsDir, moving), { recursive: true });
      expect(await applyMigrations(new PrismaPGlite(database), paths)).toEqual([moving]);
      const { rows } = await database.query<{ items: Uint8Array }>(`SELECT items FROM "OpportunitySet" WHERE id = 'live'`);
      expect(JSON.parse(Buffer.from(rows[0]!.items).toString("utf8"))).toEqual([{ id: "A-x-y" }, { id: "B-x-y" }]);
    } finally {
      await rm(scratch, { recursive: true, force: true });
    }
  }, 180_000);
  it("leaves room on the hourly history's pages, so a round's fold updates its rows without touching their indexes", async () => {
    const database = await blankDatabase();
    await applyMigrations(new PrismaPGlite(database), defaultMigrationPaths());
    const { rows } = await database.query<{ reloptions: string[] | null }>(`SELECT reloptions FROM pg_class WHERE relname = 'FundingRateHourly'`);
    expect(rows[0]!.reloptions).toEqual(["fillfactor=50"]);
    // A fold updating every row of an hour again: each new version stays on its page (heap-only).
    await database.exec(`
      INSERT INTO "FundingRateHourly" (exchange, market, base, hour, samples, "rateSum", "aprSum", "rateMin", "rateMax")
      SELECT 'x', 'm' || i, 'B' || i, '2026-12-01T00:00:00Z', 1, 0.0001, 1, 0.0001, 0.0001 FROM generate_series(1, 2000) AS i;
      UPDATE "FundingRateHourly" SET samples = samples + 1, "rateSum" = "rateSum" + 0.0001;`);
    const stats = await database.query<{ updated: number; hot: number }>(
      `SELECT n_tup_upd::int AS updated, n_tup_hot_upd::int AS hot FROM pg_stat_xact_user_tables WHERE relname = 'FundingRateHourly'`,
    );
    expect(stats.rows[0]!.updated).toBe(2000);
    expect(stats.rows[0]!.hot).toBe(2000);
  }, 180_000);
  it("keys the hourly history by hour first, so the rows a fold updates are neighbours in the key it probes", async () => {
    const database = await blankDatabase();
    await applyMigrations(new PrismaPGlite(database), defaultMigrationPaths());
    const key = await database.query<{ column: string }>(`
      SELECT a.attname AS column FROM pg_index i, unnest(i.indkey) WITH ORDINALITY AS k(attnum, position), pg_attribute a
      WHERE i.indexrelid = '"FundingRateHourly_pkey"'::regclass AND a.attrelid = i.indrelid AND a.attnum = k.attnum
      ORDER BY k.position`);
    expect(key.rows.map((r) => r.column)).toEqual(["hour", "exchange", "market"]);
    // The fold's upsert (aggregate-rounds.ts) resolves its conflicts on that key.
    const plan = await database.query<{ "QUERY PLAN": string }>(`
      EXPLAIN INSERT INTO "FundingRateHourly" AS h (exchange, market, base, hour, samples, "rateSum", "aprSum", "rateMin", "rateMax")
      VALUES ('x', 'm', 'B', '2026-12-01T00:00:00Z', 1, 0, 0, 0, 0)
      ON CONFLICT (exchange, market, hour) DO UPDATE SET samples = h.samples + EXCLUDED.samples`);
    expect(plan.rows.map((r) => r["QUERY PLAN"]).join("\n")).toContain("Conflict Arbiter Indexes: FundingRateHourly_pkey");
    // And nothing else indexes the hour alone: the key's first column serves retention and the averages.
    const indexes = await database.query<{ name: string }>(`SELECT indexname AS name FROM pg_indexes WHERE tablename = 'FundingRateHourly' ORDER BY 1`);
    expect(indexes.rows.map((r) => r.name)).toEqual(["FundingRateHourly_exchange_base_hour_idx", "FundingRateHourly_pkey"]);
  }, 180_000);
});
