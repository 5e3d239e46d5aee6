// npm run db:migrate: applies pending migrations to the configured database
// (DATABASE_URL, or the embedded PGlite under DATA_DIR).
import { configuredDatabase } from "@/lib/db";
import { acquireDataDirLock } from "@/lib/db/data-dir-lock";
import { openDatabase } from "@/lib/db/open-database";

const target = configuredDatabase();
if (target.driver === "pglite" && target.dataDir) acquireDataDirLock(target.dataDir);
const opened = await openDatabase(target);
console.log(
  opened.appliedMigrations.length
    ? `Applied ${opened.appliedMigrations.length} migration(s) to ${target.driver}: ${opened.appliedMigrations.join(", ")}`
    : `The ${target.driver} database is up to date.`,
);
await opened.close();
