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
export async function createServerDatabase(serverUrl: string): Promise<ServerDatabase> {
  const name = `test_${randomBytes(6).toString("hex")}`;
  await adminQuery(serverUrl, `CREATE DATABASE ${name}`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  try {
    const opened = await openDatabase({ driver: "postgres", url: url.toString() });
    return {
      ...opened,
      url: url.toString(),
      async close() {
        await opened.close();
        await adminQuery(serverUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      },
    };
  } catch (error) {
    await adminQuery(serverUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`).catch(() => {});
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
