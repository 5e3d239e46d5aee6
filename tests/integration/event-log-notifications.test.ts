import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { appendEventStatements, EVENT_LOG_CHANNEL, eventsAppended } from "@/lib/events/append-events";
import { listenForAppendedEvents } from "@/lib/events/log-notifications";
import type { OpenDatabase } from "@/lib/db/open-database";
import { createTestDatabase } from "@/tests/support/test-database";
import { createServerDatabase, type ServerDatabase } from "@/tests/support/server-database";

const serverUrl = process.env.DATABASE_URL;
const stale = { exchange: "okx", status: "stale" as const, last_success_at: null, error: "timeout" };

describe("appending events", () => {
  let database: OpenDatabase;
  beforeAll(async () => (database = await createTestDatabase()));
  afterAll(() => database?.close());

  it("notifies the log's channel in the same transaction, on either database", async () => {
    await database.db.$transaction(appendEventStatements(database.db, "live", [{ type: "venue.stale", data: stale }]));
    expect(await database.db.marketEvent.count({ where: { type: "venue.stale" } })).toBe(1);
  });
});

describe.skipIf(!serverUrl)("events appended by another process, on PostgreSQL", () => {
  let database: ServerDatabase;
  beforeAll(async () => (database = await createServerDatabase(serverUrl!)));
  afterAll(() => database?.close());

  /** An append as another process makes it: its events, and the notification signed with that process's name. */
  const appendAsAnotherProcess = (tx: ServerDatabase["db"]) => [
    tx.$executeRaw`INSERT INTO "MarketEvent" (mode, type, data) VALUES ('TEST'::"KeyMode", 'venue.stale', ${JSON.stringify(stale)}::jsonb)`,
    tx.$executeRaw`SELECT pg_notify(${EVENT_LOG_CHANNEL}, 'another-process')`,
  ];

  /**
   * `check` run with this process listening, once it has heard another process's append (so the
   * listener is connected), given how many times it was woken since.
   */
  async function listening(check: (woken: () => number) => Promise<void>) {
    const listener = listenForAppendedEvents(database.url);
    let woken = 0;
    const stopListening = eventsAppended().listen(() => (woken += 1));
    try {
      await waitFor(async () => {
        await database.db.$transaction(appendAsAnotherProcess(database.db));
        return woken > 0;
      });
      await new Promise((resolve) => setTimeout(resolve, 300)); // the loop's other appends, heard late
      woken = 0;
      await check(() => woken);
    } finally {
      stopListening();
      await listener.stop();
    }
  }

  it("wake this process once their transaction commits, and not before", () =>
    listening(async (woken) => {
      // Another connection's transaction, held open after its append: nothing is heard until it commits.
      let commit: () => void = () => undefined;
      const held = database.db.$transaction(async (tx) => {
        for (const statement of appendAsAnotherProcess(tx as never)) await statement;
        await new Promise<void>((resolve) => (commit = resolve));
      });
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(woken()).toBe(0);
      commit();
      await held;
      await waitFor(async () => woken() > 0);
    }));

  it("are heard, where this process's own appends are not: it is told of those in-process, with their events", () =>
    listening(async (woken) => {
      await database.db.$transaction(appendEventStatements(database.db, "live", [{ type: "venue.stale", data: stale }]));
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(woken()).toBe(0);
      // Heard all the same when another process appends after it: the listener is still there.
      await database.db.$transaction(appendAsAnotherProcess(database.db));
      await waitFor(async () => woken() > 0);
    }));
});

describe.skipIf(!serverUrl)("the event log's lock, on PostgreSQL", () => {
  let database: ServerDatabase;
  beforeAll(async () => (database = await createServerDatabase(serverUrl!)));
  afterAll(() => database?.close());

  it("holds a second append until the first one's transaction commits, its events after the first's", async () => {
    let commit: () => void = () => undefined;
    const first = database.db.$transaction(async (tx) => {
      for (const statement of appendEventStatements(tx as never, "live", [{ type: "venue.stale", data: stale }])) await statement;
      await new Promise<void>((resolve) => (commit = resolve));
    });
    await new Promise((resolve) => setTimeout(resolve, 200));
    let secondDone = false;
    const second = database.db.$transaction(appendEventStatements(database.db, "live", [{ type: "venue.stale", data: { ...stale, exchange: "bybit" } }])).then(() => (secondDone = true));
    await new Promise((resolve) => setTimeout(resolve, 300));
    // Waiting for the lock, the second has inserted nothing: no row of it is visible once the first commits either.
    expect(secondDone).toBe(false);
    commit();
    await first;
    await second;
    const rows = await database.db.marketEvent.findMany({ where: { type: "venue.stale" }, orderBy: { sequence: "asc" }, select: { data: true } });
    expect(rows.slice(-2).map((row) => (row.data as { exchange: string }).exchange)).toEqual(["okx", "bybit"]);
  });
});

async function waitFor(condition: () => Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error("not woken in time");
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
