// `npm run db:backup -- <file> [--force]`: a gzipped tarball of the embedded database in DATA_DIR
// (default .data). Refuses while a server or worker owns that directory, and an existing <file>
// unless --force. PostgreSQL deployments use pg_dump instead (docs/operations.md, Backups).
import { dataDir, readEnv } from "@/lib/config/env";
import { backupEmbeddedDatabase } from "@/lib/db/backup";
import { runCommand } from "./db-backup-command";

runCommand("db:backup", async (file, force) => {
  const env = readEnv();
  if (env.DATABASE_URL) {
    throw new Error('DATABASE_URL is set: back up PostgreSQL with pg_dump, e.g. pg_dump --format=custom --file=fods.dump "$DATABASE_URL"');
  }
  const result = await backupEmbeddedDatabase(dataDir(env), file, { force });
  console.log(`Backed up ${dataDir(env)} (${result.migrations} migrations) to ${result.file}: ${(result.bytes / 1_048_576).toFixed(1)} MB`);
});
