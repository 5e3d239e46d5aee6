import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { OpenDatabase } from "@/lib/db/open-database";
import { liveServers, startServerHeartbeat } from "@/lib/process/server-instances";
import { createTestDatabase } from "@/tests/support/test-database";

describe("servers counting each other through the database", () => {
  let database: OpenDatabase;
  beforeAll(async () => (database = await createTestDatabase()));
  afterAll(() => database?.close());

  it("counts the servers whose heartbeat is recent, and forgets one that stops", async () => {
    const quiet = { publish: false, intervalMs: 60_000, log: () => undefined };
    const first = startServerHeartbeat(database.db, quiet);
    const second = startServerHeartbeat(database.db, quiet);
    try {
      // Each started with a beat of its own, which may have counted before the other's was written.
      await Promise.all([first.beat(), second.beat()]);
      expect(await first.beat()).toBe(2);
      expect(await second.beat()).toBe(2);
      // A server that stopped beating without its shutdown (kill -9) drops out once its heartbeat is old.
      await database.db.$executeRaw`UPDATE "ServerInstance" SET "heartbeatAt" = "heartbeatAt" - interval '1 minute' WHERE id = ${second.id}`;
      expect(await first.beat()).toBe(1);
      expect(await second.beat()).toBe(2);
      await second.stop();
      expect(await first.beat()).toBe(1);
      expect(await database.db.serverInstance.count()).toBe(1);
    } finally {
      await Promise.all([first.stop(), second.stop()]);
    }
  });

  it("tells the process's rate limiter how many servers share a limit", async () => {
    expect(liveServers()).toBe(1);
    const other = startServerHeartbeat(database.db, { publish: false, intervalMs: 60_000 });
    const own = startServerHeartbeat(database.db, { intervalMs: 60_000 });
    try {
      await Promise.all([other.beat(), own.beat()]);
      await own.beat();
      expect(liveServers()).toBe(2);
    } finally {
      await other.stop();
      await own.stop();
    }
    expect(liveServers()).toBe(1);
  });
});
