import { cp, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { PrismaPGlite } from "pglite-prisma-adapter";
import { afterAll, describe, expect, it } from "vitest";
import { createMigration, defaultMigrationPaths, diffSchemaAgainstMigrations, migrationNames } from "@/lib/db/migrations";

const shadows: PGlite[] = [];
function shadowFactory() {
  const shadow = new PGlite();
  shadows.push(shadow);
  return new PrismaPGlite(shadow);
}
afterAll(async () => {
  await Promise.all(shadows.map((s) => s.close()));
});

describe("schema.prisma and prisma/migrations", () => {
  it("agree: replaying the history yields exactly the schema (run `npm run db:migration -- <name>` if this fails)", async () => {
    expect(await diffSchemaAgainstMigrations(shadowFactory())).toBe("");
  }, 180_000);

  it("a schema change without a migration is detected, and db:migration writes the missing one", async () => {
    const scratch = await mkdtemp(path.join(os.tmpdir(), "fods-migrations-"));
    try {
      const real = defaultMigrationPaths();
      const paths = { schemaPath: path.join(scratch, "schema.prisma"), migrationsDir: path.join(scratch, "migrations") };
      await cp(real.migrationsDir, paths.migrationsDir, { recursive: true });
      const schema = await readFile(real.schemaPath, "utf8");
      await writeFile(paths.schemaPath, `${schema}\nmodel DriftProbe {\n  id Int @id\n}\n`);

      const written = await createMigration("drift_probe", shadowFactory(), paths, new Date("2030-01-02T03:04:05Z"));
      expect(written).toBe("20300102030405_drift_probe");
      expect(await migrationNames(paths.migrationsDir)).toContain(written);
      const sql = await readFile(path.join(paths.migrationsDir, written!, "migration.sql"), "utf8");
      expect(sql).toContain('CREATE TABLE "DriftProbe"');
      expect(await diffSchemaAgainstMigrations(shadowFactory(), paths)).toBe("");
    } finally {
      await rm(scratch, { recursive: true, force: true });
    }
  }, 180_000);
});
