import { existsSync } from "node:fs";
import { mkdir, readdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import type { SqlMigrationAwareDriverAdapterFactory } from "@prisma/driver-adapter-utils";
import { startSchemaEngine, type SchemaEngine, type SchemaFile } from "./schema-engine";

type MigrationList = Parameters<SchemaEngine["applyMigrations"]>[0]["migrationsList"];

const NO_FILTERS = { externalTables: [], externalEnums: [] };
const LOCKFILE = "migration_lock.toml";
// One dialect for every database this service runs on (PGlite is PostgreSQL).
const LOCKFILE_CONTENT = '# Written by npm run db:migration; do not edit.\nprovider = "postgresql"\n';

export interface MigrationPaths {
  schemaPath: string;
  migrationsDir: string;
}

export function defaultMigrationPaths(root = process.cwd()): MigrationPaths {
  return {
    schemaPath: path.join(root, "prisma", "schema.prisma"),
    migrationsDir: path.join(root, "prisma", "migrations"),
  };
}

async function readSchema(paths: MigrationPaths): Promise<SchemaFile> {
  return { path: paths.schemaPath, content: await readFile(paths.schemaPath, "utf8") };
}

/** Names of the migration folders on disk, oldest first (names start with a timestamp). */
export async function migrationNames(migrationsDir: string): Promise<string[]> {
  if (!existsSync(migrationsDir)) return [];
  const entries = await readdir(migrationsDir, { withFileTypes: true });
  return entries
    .filter((e) => e.isDirectory() && existsSync(path.join(migrationsDir, e.name, "migration.sql")))
    .map((e) => e.name)
    .sort();
}

async function readMigrationList(migrationsDir: string): Promise<MigrationList> {
  const names = await migrationNames(migrationsDir);
  const lockPath = path.join(migrationsDir, LOCKFILE);
  return {
    baseDir: migrationsDir,
    lockfile: {
      path: LOCKFILE,
      content: existsSync(lockPath) ? await readFile(lockPath, "utf8") : LOCKFILE_CONTENT,
    },
    shadowDbInitScript: "",
    migrationDirectories: await Promise.all(
      names.map(async (name) => ({
        path: name,
        migrationFile: {
          path: "migration.sql",
          content: { tag: "ok" as const, value: await readFile(path.join(migrationsDir, name, "migration.sql"), "utf8") },
        },
      })),
    ),
  };
}

async function withEngine<T>(
  adapterFactory: SqlMigrationAwareDriverAdapterFactory,
  paths: MigrationPaths,
  run: (engine: SchemaEngine, schema: SchemaFile) => Promise<T>,
): Promise<T> {
  const schema = await readSchema(paths);
  const engine = await startSchemaEngine(schema, adapterFactory);
  try {
    return await run(engine, schema);
  } finally {
    engine.free();
  }
}

/**
 * Applies every migration in `prisma/migrations` not yet recorded in `_prisma_migrations`
 * (the same table `prisma migrate deploy` keeps). Returns the names it applied.
 */
export async function applyMigrations(
  adapterFactory: SqlMigrationAwareDriverAdapterFactory,
  paths = defaultMigrationPaths(),
): Promise<string[]> {
  const migrationsList = await readMigrationList(paths.migrationsDir);
  return withEngine(adapterFactory, paths, async (engine) => {
    const { appliedMigrationNames } = await engine.applyMigrations({ migrationsList, filters: NO_FILTERS });
    return appliedMigrationNames;
  });
}

/**
 * SQL that would bring the migration history up to `schema.prisma`; empty when they agree.
 * `adapterFactory` supplies the shadow database the history is replayed into.
 */
export async function diffSchemaAgainstMigrations(
  adapterFactory: SqlMigrationAwareDriverAdapterFactory,
  paths = defaultMigrationPaths(),
): Promise<string> {
  const migrationsList = await readMigrationList(paths.migrationsDir);
  return withEngine(adapterFactory, paths, async (engine, schema) => {
    const result = await engine.diff({
      from: { tag: "migrations", ...migrationsList },
      to: { tag: "schemaDatamodel", files: [schema] },
      script: true,
      exitCode: true,
      filters: NO_FILTERS,
    });
    return result.exitCode === 2 ? (result.stdout ?? "") : "";
  });
}

/**
 * Writes `prisma/migrations/<timestamp>_<name>/migration.sql` from the difference between the
 * history and `schema.prisma`. Returns the folder name, or null when there is nothing to migrate.
 *
 * The WASM engine's own `createMigration` cannot reach a shadow database for PostgreSQL; `diff`
 * can (through the adapter factory), so the migration is written from the diff, as Prisma's
 * CLI would name and lay it out.
 */
export async function createMigration(
  name: string,
  adapterFactory: SqlMigrationAwareDriverAdapterFactory,
  paths = defaultMigrationPaths(),
  now = new Date(),
): Promise<string | null> {
  if (!/^[a-z0-9_]+$/.test(name)) throw new Error("A migration name uses lowercase letters, digits and underscores.");
  const script = await diffSchemaAgainstMigrations(adapterFactory, paths);
  if (!script.trim()) return null;
  const stamp = now.toISOString().replace(/[-:T]/g, "").slice(0, 14);
  const folderName = `${stamp}_${name}`;
  const folder = path.join(paths.migrationsDir, folderName);
  await mkdir(folder, { recursive: true });
  await writeFile(path.join(folder, "migration.sql"), script);
  const lockPath = path.join(paths.migrationsDir, LOCKFILE);
  if (!existsSync(lockPath)) await writeFile(lockPath, LOCKFILE_CONTENT);
  return folderName;
}
