import { existsSync } from "node:fs";
import path from "node:path";
import type { SqlMigrationAwareDriverAdapterFactory } from "@prisma/driver-adapter-utils";
import { PrismaClient } from "./generated/client";
import { logger } from "@/lib/observability/logger";
import { ensurePrivateDir, tightenTree } from "@/lib/config/private-dir";
import { poolStats, registerDatabaseStats, type DatabaseStats } from "./database-stats";
import { pgliteDirectSql, postgresDirectSql, registerDirectSql, type DirectSql } from "./direct-sql";
import { pgliteOptions } from "./pglite-settings";
import { copyPgliteTemplate, readPgliteTemplate } from "./pglite-template.mjs";
import { applyMigrations, defaultMigrationPaths, migrationNames, type MigrationPaths } from "./migrations";

export type Db = PrismaClient;

export type DatabaseTarget =
  // null: in memory (tests), started from `cluster` (a `dumpDataDir` tarball) when given, else from the template
  | { driver: "pglite"; dataDir: string | null; cluster?: Blob }
  | { driver: "postgres"; url: string };

export interface OpenDatabase {
  db: Db;
  driver: DatabaseTarget["driver"];
  adapterFactory: SqlMigrationAwareDriverAdapterFactory;
  /** Names of the migrations this open applied (empty when the database was up to date). */
  appliedMigrations: string[];
  /** Bytes of the embedded database's WebAssembly memory now (undefined with PostgreSQL). */
  wasmMemoryBytes(): number | undefined;
  close(): Promise<void>;
}

/** Opens a database, applies pending migrations, and returns a Prisma client on it. */
export async function openDatabase(
  target: DatabaseTarget,
  paths: MigrationPaths = defaultMigrationPaths(),
): Promise<OpenDatabase> {
  let adapterFactory: SqlMigrationAwareDriverAdapterFactory;
  let closeDriver: () => Promise<void>;
  let wasmMemoryBytes: () => number | undefined = () => undefined;
  let sql: DirectSql;
  let stats: () => DatabaseStats;
  if (target.driver === "pglite") {
    // Loaded on demand so PostgreSQL deployments never instantiate the PGlite WASM module.
    const [{ PGlite }, { PrismaPGlite }] = await Promise.all([
      import("@electric-sql/pglite"),
      import("pglite-prisma-adapter"),
    ]);
    if (target.dataDir) ensurePrivateDir(target.dataDir);
    const dir = target.dataDir ? path.join(target.dataDir, "pglite") : undefined;
    // A new database starts as a copy of the prebuilt cluster when there is one, not from initdb
    // (lib/db/pglite-template.mjs); in memory, from its tarball.
    if (dir && !existsSync(path.join(dir, "PG_VERSION"))) copyPgliteTemplate(dir);
    const template = dir ? undefined : (target.cluster ?? readPgliteTemplate());
    const options = { ...pgliteOptions(PGlite.defaultStartParams), ...(template && { loadDataDir: template }) };
    const pglite = dir ? new PGlite(dir, options) : new PGlite(options);
    await pglite.waitReady;
    // Owner only, existing files included: the data is every account's (password hashes, keys'
    // hashes). Checked once PGlite is up, since a new cluster's files are copied in with 0644 modes
    // of their own; what it creates later follows the process umask (server.ts sets 077).
    if (target.dataDir) tightenTree(target.dataDir);
    adapterFactory = new PrismaPGlite(pglite);
    sql = pgliteDirectSql(pglite);
    closeDriver = () => pglite.close();
    wasmMemoryBytes = () => pgliteHeapBytes(pglite);
    stats = () => ({ pools: [], wasmMemoryBytes: wasmMemoryBytes() });
  } else {
    const [{ PrismaPg }, { default: pg }] = await Promise.all([import("@prisma/adapter-pg"), import("pg")]);
    // The pool the adapter would make for itself, made here so GET /metrics can read its use.
    const pool = new pg.Pool({ connectionString: target.url });
    // The adapter listens only while connected; an idle client's failure (the server restarted)
    // must not end the process at any other time either. The pool opens another client.
    pool.on("error", (error) => logger("db").warn({ err: error }, "an idle PostgreSQL connection failed"));
    adapterFactory = new PrismaPg(pool);
    const postgres = await postgresDirectSql(target.url);
    sql = postgres;
    closeDriver = async () => {
      try {
        await postgres.close();
      } finally {
        await pool.end();
      }
    };
    stats = () => ({ pools: [poolStats("prisma", pool), postgres.stats()] });
  }
  const db = new PrismaClient({ adapter: adapterFactory });
  registerDirectSql(db, sql);
  registerDatabaseStats(db, stats);
  try {
    const appliedMigrations = (await hasPendingMigrations(db, paths)) ? await applyMigrations(adapterFactory, paths) : [];
    return {
      db,
      driver: target.driver,
      adapterFactory,
      appliedMigrations,
      wasmMemoryBytes,
      async close() {
        await db.$disconnect();
        await closeDriver();
      },
    };
  } catch (error) {
    // The migration's error is the one thrown; failing to close what it left open adds nothing.
    await db.$disconnect().catch(() => {});
    await closeDriver().catch(() => {});
    throw error;
  }
}

/**
 * PGlite keeps its Emscripten module in a protected field; its heap view is the WebAssembly memory.
 * Read for the memory report only (lib/process/memory-report.ts): should a release rename it, the
 * report leaves the figure out rather than fail.
 */
function pgliteHeapBytes(pglite: object): number | undefined {
  const heap = (pglite as { mod?: { HEAPU8?: Uint8Array } }).mod?.HEAPU8;
  return heap?.buffer.byteLength;
}

/**
 * One cheap query decides whether the schema engine (5 MB of WASM) needs loading at all:
 * on every boot but the first, nothing is pending.
 */
async function hasPendingMigrations(db: Db, paths: MigrationPaths): Promise<boolean> {
  const onDisk = await migrationNames(paths.migrationsDir);
  let applied: { migration_name: string }[];
  try {
    applied = await db.$queryRaw<{ migration_name: string }[]>`
      SELECT migration_name FROM _prisma_migrations
      WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL`;
  } catch {
    return onDisk.length > 0; // no history table yet
  }
  const done = new Set(applied.map((row) => row.migration_name));
  return onDisk.some((name) => !done.has(name));
}
