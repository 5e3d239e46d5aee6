import { randomBytes } from "node:crypto";
import pg from "pg";
import { openDatabase, type OpenDatabase } from "@/lib/db/open-database";

export interface ServerDatabase extends OpenDatabase {
  /** Connection URL of the new database, for other processes to open. */
  url: string;
}

/**
 * Like createTestDatabase on PostgreSQL, but says where the database is: a new, migrated
 * database on the server at `serverUrl`, dropped (connections and all) by `close()`.
 */
export async function createServerDatabase(serverUrl: string, prefix = "test"): Promise<ServerDatabase> {
  const name = `${prefix}_${randomBytes(6).toString("hex")}`;
  await adminQuery(serverUrl, `CREATE DATABASE ${name}`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  const drop = () => adminQuery(serverUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  try {
    const opened = await openDatabase({ driver: "postgres", url: url.toString() });
    return {
      ...opened,
      url: url.toString(),
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

async function adminQuery(url: string, sql: string) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}
