import { afterAll, beforeAll } from "vitest";
import type { Db } from "@/lib/db";
import type { OpenDatabase } from "@/lib/db/open-database";
import { createTestDatabase } from "./test-database";

/**
 * A test file's own freshly migrated database: opened before the file's tests, closed after them
 * (called inside a describe block, that block's own). Call it before the file's own hooks; `db` is
 * there from their beforeAll on.
 */
export function testDatabaseForFile(): { readonly db: Db } {
  let database: OpenDatabase | undefined;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(async () => {
    await database?.close();
  });
  return {
    get db() {
      if (!database) throw new Error("testDatabaseForFile: the database is opened in beforeAll");
      return database.db;
    },
  };
}
