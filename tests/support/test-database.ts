import { openDatabase, type OpenDatabase } from "@/lib/db/open-database";
import { createServerDatabase } from "@/tests/support/server-database";

/**
 * A freshly migrated database for one test file (or benchmark): an in-memory PGlite by default, or,
 * when DATABASE_URL is set (CI's second pass), a new database on that PostgreSQL server, dropped after.
 */
export async function createTestDatabase(): Promise<OpenDatabase> {
  const serverUrl = process.env.DATABASE_URL;
  return serverUrl ? createServerDatabase(serverUrl) : openDatabase({ driver: "pglite", dataDir: null });
}
