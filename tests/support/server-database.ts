import { randomBytes } from "node:crypto";
import pg from "pg";
import { openDatabase, type OpenDatabase } from "@/lib/db/open-database";
import { migrationHistoryHash } from "@/tests/support/migration-history";

export interface ServerDatabase extends OpenDatabase {
  /** Connection URL of the new database, for other processes to open. */
  url: string;
}

/**
 * Like createTestDatabase on PostgreSQL, but says where the database is: a new, migrated
 * database on the server at `serverUrl`, dropped (connections and all) by `close()`. It is a copy
 * of a database on that server the history was applied to once (see migratedTemplate), unless
 * `replayMigrations` asks for the migrations to be applied in this open.
 */
export async function createServerDatabase(serverUrl: string, prefix = "test", options: { replayMigrations?: boolean } = {}): Promise<ServerDatabase> {
  const name = `${prefix}_${randomBytes(6).toString("hex")}`;
  const template = options.replayMigrations ? undefined : await migratedTemplate(serverUrl);
  await adminQuery(serverUrl, template ? `CREATE DATABASE ${name} TEMPLATE ${template}` : `CREATE DATABASE ${name}`);
  const drop = () => adminQuery(serverUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  try {
    const opened = await openDatabase({ driver: "postgres", url: databaseUrl(serverUrl, name) });
    return {
      ...opened,
      url: databaseUrl(serverUrl, name),
      async close() {
        // Dropped even when closing failed (the fault suites close databases whose server they restarted).
        await opened.close().catch(() => undefined);
        await drop();
      },
    };
  } catch (error) {
    await drop().catch(() => undefined);
    throw error;
  }
}

/**
 * The name of a database on the server with every migration applied and no connections, which new
 * test databases are copied from (CREATE DATABASE … TEMPLATE copies its files): cheaper than
 * replaying the history into each. Made by the first caller, named by the history's hash; built
 * under a name of its own and renamed, so that test workers making it at once never copy a
 * half-migrated one (the loser of the rename drops its copy).
 */
async function migratedTemplate(serverUrl: string): Promise<string> {
  const name = `fods_migrated_${await migrationHistoryHash()}`;
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    const { rowCount } = await client.query("SELECT 1 FROM pg_database WHERE datname = $1", [name]);
    if (rowCount) return name;
    const building = `${name}_${randomBytes(4).toString("hex")}`;
    await client.query(`CREATE DATABASE ${building}`);
    try {
      await (await openDatabase({ driver: "postgres", url: databaseUrl(serverUrl, building) })).close();
      await client.query(`ALTER DATABASE ${building} RENAME TO ${name}`);
    } catch (error) {
      await client.query(`DROP DATABASE IF EXISTS ${building} WITH (FORCE)`);
      const { rowCount: made } = await client.query("SELECT 1 FROM pg_database WHERE datname = $1", [name]);
      if (!made) throw error;
    }
    return name;
  } finally {
    await client.end();
  }
}

function databaseUrl(serverUrl: string, name: string): string {
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

async function adminQuery(url: string, sql: string) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}
