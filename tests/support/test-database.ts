import { existsSync } from "node:fs";
import { readFile, rename, writeFile } from "node:fs/promises";
import { PGlite } from "@electric-sql/pglite";
import { PrismaPGlite } from "pglite-prisma-adapter";
import { applyMigrations } from "@/lib/db/migrations";
import { openDatabase, type OpenDatabase } from "@/lib/db/open-database";
import { pgliteOptions } from "@/lib/db/pglite-settings";
import { makePgliteTemplate, pgliteTemplatePaths, readPgliteTemplate } from "@/lib/db/pglite-template.mjs";
import { migrationHistoryHash } from "@/tests/support/migration-history";
import { createServerDatabase } from "@/tests/support/server-database";

/**
 * A freshly migrated database for one test file (or benchmark): an in-memory PGlite by default, or,
 * when DATABASE_URL is set (CI's second pass), a new database on that PostgreSQL server, dropped after.
 *
 * Either starts as a copy of a database the whole migration history was applied to once (per
 * history, and per PGlite version or server), so its `appliedMigrations` is empty;
 * `replayMigrations` applies them in this open instead, for the tests of migrating itself.
 */
export async function createTestDatabase(options: { replayMigrations?: boolean } = {}): Promise<OpenDatabase> {
  const serverUrl = process.env.DATABASE_URL;
  if (serverUrl) return createServerDatabase(serverUrl, "test", options);
  // Every file after the first loads the prebuilt cluster instead of running initdb: about a
  // third of the time and memory (lib/db/pglite-template.mjs).
  await makePgliteTemplate();
  const cluster = options.replayMigrations ? undefined : await migratedClusterOnce();
  return openDatabase({ driver: "pglite", dataDir: null, cluster });
}

/**
 * An empty in-memory PGlite (no migrations applied), loaded from the prebuilt cluster rather than
 * made by initdb: for tests that migrate, or diff the history, themselves. Closing it is the caller's.
 */
export async function createBlankPglite(): Promise<PGlite> {
  await makePgliteTemplate();
  const pglite = new PGlite({ ...pgliteOptions(PGlite.defaultStartParams), loadDataDir: readPgliteTemplate() });
  await pglite.waitReady;
  return pglite;
}

let migrated: Promise<Blob> | undefined;

/** `migratedCluster`, read once per process: every database a test file opens loads the same one. */
function migratedClusterOnce(): Promise<Blob> {
  migrated ??= migratedCluster();
  migrated.catch(() => (migrated = undefined));
  return migrated;
}

/**
 * The prebuilt cluster with every migration applied, as a tarball: made by the first test file
 * that needs it and kept beside the template, named by the migration history's hash. Loading it costs less than replaying the history
 * (the schema engine's WASM included) in every test database. Written under a temporary name and
 * renamed, so that test workers making it at once never read a partial one.
 */
async function migratedCluster(): Promise<Blob> {
  const file = `${pgliteTemplatePaths().dir}-migrated-${await migrationHistoryHash()}.tgz`;
  if (existsSync(file)) return new Blob([await readFile(file)]);
  const pglite = await createBlankPglite();
  try {
    await applyMigrations(new PrismaPGlite(pglite));
    const dump = await pglite.dumpDataDir("gzip");
    await writeFile(`${file}.partial-${process.pid}`, Buffer.from(await dump.arrayBuffer()));
    await rename(`${file}.partial-${process.pid}`, file);
    return dump;
  } finally {
    await pglite.close();
  }
}
