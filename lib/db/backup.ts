import fs from "node:fs";
import path from "node:path";
import { acquireDataDirLock, releaseDataDirLock } from "./data-dir-lock";
import { pgliteOptions } from "./pglite-settings";

/**
 * Backups of the embedded database: PGlite's own tarball of its data directory (`dumpDataDir`),
 * restored by handing the tarball to a new PGlite (`loadDataDir`). Both take the data directory's
 * lock first, so they refuse while a server or worker owns it, and no server can start on it while
 * they run. PostgreSQL deployments use pg_dump/pg_restore instead (docs/operations.md).
 */

/** Where the embedded database lives inside DATA_DIR (see open-database.ts). */
export function pgliteDir(dataDir: string): string {
  return path.join(dataDir, "pglite");
}

export class BackupError extends Error {
  override name = "BackupError";
}

function hasDatabase(dir: string): boolean {
  return fs.existsSync(path.join(dir, "PG_VERSION"));
}

function isNonEmptyDir(dir: string): boolean {
  try {
    return fs.readdirSync(dir).length > 0;
  } catch {
    return false;
  }
}

/** Runs `work` holding the data directory's lock, unless this process already held it. */
async function withDataDirLock<T>(dataDir: string, work: () => Promise<T>): Promise<T> {
  let heldBefore = false;
  try {
    heldBefore = JSON.parse(fs.readFileSync(path.join(dataDir, "embedded-db.lock"), "utf8")).pid === process.pid;
  } catch {
    // No lock file, or garbage: acquireDataDirLock decides.
  }
  acquireDataDirLock(dataDir); // throws DataDirLockedError, naming the owner, while a server runs
  try {
    return await work();
  } finally {
    if (!heldBefore) releaseDataDirLock(dataDir);
  }
}

async function openPGlite(dir: string, loadDataDir?: Blob) {
  const { PGlite } = await import("@electric-sql/pglite");
  // The server's settings: a restore's check and a backup need no more memory than serving.
  const db = new PGlite(dir, { ...pgliteOptions(PGlite.defaultStartParams), ...(loadDataDir && { loadDataDir }) });
  await db.waitReady;
  return db;
}

export interface BackupResult {
  file: string;
  bytes: number;
  /** Migrations recorded in the backed-up database: what a restore will hold. */
  migrations: number;
}

/**
 * Writes a gzipped tarball of the embedded database in `dataDir` to `file` (through a temporary
 * file, so a failed backup never leaves a truncated one under the real name), readable by its owner
 * only (0600). Refuses an existing `file` unless `force`.
 */
export async function backupEmbeddedDatabase(dataDir: string, file: string, options: { force?: boolean } = {}): Promise<BackupResult> {
  const source = pgliteDir(dataDir);
  if (!hasDatabase(source)) throw new BackupError(`There is no embedded database in ${source}.`);
  const target = path.resolve(file);
  if (fs.existsSync(target) && !options.force) throw new BackupError(`${target} exists; pass --force to overwrite it.`);
  return withDataDirLock(dataDir, async () => {
    const db = await openPGlite(source);
    try {
      const migrations = await countMigrations(db);
      const tarball = await db.dumpDataDir("gzip");
      const bytes = Buffer.from(await tarball.arrayBuffer());
      const partial = `${target}.partial-${process.pid}`;
      fs.mkdirSync(path.dirname(target), { recursive: true });
      // The archive holds the whole database (password hashes, key hashes, sessions): owner-only,
      // whatever the umask, and created afresh so a stale partial file's mode is not inherited.
      fs.rmSync(partial, { force: true });
      fs.writeFileSync(partial, bytes, { mode: 0o600, flag: "wx" });
      fs.renameSync(partial, target);
      return { file: target, bytes: bytes.length, migrations };
    } finally {
      await db.close();
    }
  });
}

export interface RestoreResult {
  dir: string;
  migrations: number;
  /** Where the database that `force` replaced was moved to (delete it once the restore is checked). */
  replacedMovedTo?: string;
}

/**
 * Restores a backup into `dataDir`, which must not already hold a database unless `force` (the old
 * one is then moved aside to `pglite.replaced-<time>`, not deleted). The tarball is loaded into a
 * new directory next to the target, checked to open as this service's database, and only then
 * renamed into place, so a bad backup leaves `dataDir` as it was.
 */
export async function restoreEmbeddedDatabase(file: string, dataDir: string, options: { force?: boolean } = {}): Promise<RestoreResult> {
  const source = path.resolve(file);
  if (!fs.existsSync(source)) throw new BackupError(`No backup at ${source}.`);
  const target = pgliteDir(dataDir);
  if (isNonEmptyDir(target) && !options.force) {
    throw new BackupError(`${target} already holds a database; restore into a new DATA_DIR, or pass --force to replace it (it is moved aside, not deleted).`);
  }
  fs.mkdirSync(dataDir, { recursive: true });
  return withDataDirLock(dataDir, async () => {
    const staging = `${target}.restoring-${process.pid}`;
    fs.rmSync(staging, { recursive: true, force: true });
    let migrations: number;
    try {
      const tarball = new Blob([fs.readFileSync(source)]);
      const db = await openPGlite(staging, tarball);
      try {
        migrations = await countMigrations(db);
      } finally {
        await db.close();
      }
    } catch (error) {
      fs.rmSync(staging, { recursive: true, force: true });
      if (error instanceof BackupError) throw error;
      throw new BackupError(`${source} is not a backup this service can restore: ${(error as Error).message}`);
    }
    let replacedMovedTo: string | undefined;
    if (fs.existsSync(target)) {
      if (isNonEmptyDir(target)) {
        replacedMovedTo = `${target}.replaced-${new Date().toISOString().replace(/[:.]/g, "-")}`;
        fs.renameSync(target, replacedMovedTo);
      } else {
        fs.rmdirSync(target);
      }
    }
    fs.renameSync(staging, target);
    return { dir: target, migrations, ...(replacedMovedTo && { replacedMovedTo }) };
  });
}

/** The number of applied migrations: also proves the database is this service's. */
async function countMigrations(db: { query<T>(sql: string): Promise<{ rows: T[] }> }): Promise<number> {
  try {
    const { rows } = await db.query<{ n: number }>("SELECT count(*)::int AS n FROM _prisma_migrations WHERE finished_at IS NOT NULL");
    return rows[0]?.n ?? 0;
  } catch {
    throw new BackupError("the database has no migration history (_prisma_migrations): it is not this service's database");
  }
}
