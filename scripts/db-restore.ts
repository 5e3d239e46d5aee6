// `npm run db:restore -- <file> [--force]`: restores a db:backup tarball into DATA_DIR (default
// .data), which must hold no database yet; --force moves an existing one aside (pglite.replaced-…)
// instead. Refuses while a server or worker owns the directory. PostgreSQL: pg_restore.
import { dataDir, readEnv } from "@/lib/config/env";
import { restoreEmbeddedDatabase } from "@/lib/db/backup";
import { runCommand } from "./db-backup-command";

runCommand("db:restore", async (file, force) => {
  const env = readEnv();
  if (env.DATABASE_URL) {
    throw new Error('DATABASE_URL is set: restore PostgreSQL with pg_restore, e.g. pg_restore --clean --if-exists --no-owner --dbname="$DATABASE_URL" fods.dump');
  }
  const result = await restoreEmbeddedDatabase(file, dataDir(env), { force });
  console.log(`Restored ${file} into ${result.dir} (${result.migrations} migrations). Start the server on DATA_DIR=${dataDir(env)}.`);
  if (result.replacedMovedTo) console.log(`The database it replaced is in ${result.replacedMovedTo}; delete it once you have checked the restore.`);
});
