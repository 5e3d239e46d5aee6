import { dataDir, readEnv } from "@/lib/config/env";
import { dropProcessSingleton, processSingleton } from "@/lib/singleton";
import { acquireDataDirLock } from "./data-dir-lock";
import { openDatabase, type DatabaseTarget, type OpenDatabase } from "./open-database";

export type { Db } from "./open-database";

/** Where the service's data lives: PostgreSQL when DATABASE_URL is set, else embedded PGlite. */
export function configuredDatabase(): DatabaseTarget {
  const env = readEnv();
  return env.DATABASE_URL
    ? { driver: "postgres", url: env.DATABASE_URL }
    : { driver: "pglite", dataDir: dataDir(env) };
}

/**
 * The process's database, opened and migrated on first use. Nothing opens it at import time,
 * so `next build` never touches it.
 */
export function openServiceDatabase(): Promise<OpenDatabase> {
  return processSingleton("database", () => {
    const target = configuredDatabase();
    if (target.driver === "pglite" && target.dataDir) acquireDataDirLock(target.dataDir);
    const opening = openDatabase(target);
    // A failed open must not be cached: the next caller tries again.
    opening.catch(() => dropProcessSingleton("database"));
    return opening;
  });
}

export async function getDb() {
  return (await openServiceDatabase()).db;
}

