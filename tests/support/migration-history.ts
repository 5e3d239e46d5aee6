import { createHash } from "node:crypto";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { defaultMigrationPaths, migrationNames } from "@/lib/db/migrations";

let hashed: Promise<string> | undefined;

/**
 * A short hash of prisma/migrations (every migration's name and SQL): names a database the whole
 * history was applied to once, so that a new or changed migration makes a new one. Read once per
 * process: a test file opens several databases, and the history does not change under it.
 */
export function migrationHistoryHash(): Promise<string> {
  hashed ??= hashHistory();
  hashed.catch(() => (hashed = undefined));
  return hashed;
}

async function hashHistory(): Promise<string> {
  const { migrationsDir } = defaultMigrationPaths();
  const hash = createHash("sha256");
  for (const name of await migrationNames(migrationsDir)) {
    hash.update(name).update(await readFile(path.join(migrationsDir, name, "migration.sql")));
  }
  return hash.digest("hex").slice(0, 16);
}
