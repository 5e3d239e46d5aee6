import { openDatabase, type OpenDatabase } from "@/lib/db/open-database";
import { makePgliteTemplate } from "@/lib/db/pglite-template.mjs";
import { createServerDatabase } from "@/tests/support/server-database";

/**
 * A freshly migrated database for one test file (or benchmark): an in-memory PGlite by default, or,
 * when DATABASE_URL is set (CI's second pass), a new database on that PostgreSQL server, dropped after.
 */
export async function createTestDatabase(): Promise<OpenDatabase> {
  const serverUrl = process.env.DATABASE_URL;
  if (serverUrl) return createServerDatabase(serverUrl);
  // Every file after the first loads the prebuilt cluster instead of running initdb: about a
  // third of the time and memory (lib/db/pglite-template.mjs).
  await makePgliteTemplate();
  return openDatabase({ driver: "pglite", dataDir: null });
}
