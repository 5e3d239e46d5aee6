import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "@/lib/db";
import type { OpenDatabase } from "@/lib/db/open-database";
import { appendEventStatements, eventsAppended } from "@/lib/events/append-events";
import type { NewEvent } from "@/lib/events/event-data";
import { EventFeed, type FeedEvent } from "@/lib/events/event-feed";
import { readEventPage } from "@/lib/events/read-events";
import { appendEventsQuietly } from "@/tests/support/append-events-quietly";
import { createTestDatabase } from "@/tests/support/test-database";

let database: OpenDatabase;
/** The database with its event reads counted: what the feed read back from the log. */
let counted: Db;
let reads = 0;

beforeAll(async () => {
  database = await createTestDatabase();
  const { db } = database;
  counted = new Proxy(db, {
    get: (target, property) =>
      property === "marketEvent"
        ? new Proxy(target.marketEvent, {
            get: (events, name) => {
              const value = Reflect.get(events, name) as unknown;
              if (name !== "findMany" || typeof value !== "function") return value;
              return (...args: unknown[]) => {
                reads += 1;
                return (value as (...a: unknown[]) => unknown).apply(events, args);
              };
            },
          })
        : (Reflect.get(target, property) as unknown),
  });
});
afterAll(() => database?.close());

let counter = 0;
const events = (n: number): NewEvent[] =>
  Array.from({ length: n }, () => ({ type: "venue.stale", data: { exchange: "okx", status: "stale", last_success_at: null, error: `failure ${++counter}` } }));

const append = async (batch: NewEvent[]) => (await appendEventsQuietly(database.db, "live", batch)).range;

describe("the event feed", () => {
  it("takes events this process appended as given when they follow on from its position, and reads the log when they do not", async () => {
    const feed = new EventFeed(async () => counted, 3_600_000);
    const received: FeedEvent[] = [];
    const subscription = await feed.subscribe((batch) => received.push(...batch));
    try {
      const first = events(3);
      const range = await append(first);
      expect(range.count).toBe(3);
      expect(range.last - range.first).toBe(2n);
      const readsBefore = reads;
      eventsAppended().notify({ mode: "live", events: first, range });

      // Delivered at once, not read back, as the log has them.
      expect(reads).toBe(readsBefore);
      expect(received.map((e) => e.sequence)).toEqual([range.first, range.first + 1n, range.first + 2n]);
      const logged = await readEventPage(database.db, { mode: "live", userId: "nobody" }, { after: range.first - 1n, limit: 10 });
      expect(received.map((e) => e.event)).toEqual(logged.items);
      expect(new TextDecoder().decode(received[0]!.frame)).toMatch(/^id: evt_\d+\nevent: venue\.stale\ndata: \{/);

      // Another writer's event comes between: the next batch does not follow on, so the log is read, in order.
      await database.db.$transaction(appendEventStatements(database.db, "live", events(1)));
      const second = events(2);
      const after = await append(second);
      eventsAppended().notify({ mode: "live", events: second, range: after });
      await expect.poll(() => received.length).toBe(6);
      expect(reads).toBeGreaterThan(readsBefore);
      expect(received.slice(3).map((e) => e.sequence)).toEqual([range.last + 1n, after.first, after.last]);
      expect(received.at(-1)!.event).toMatchObject({ type: "venue.stale", data: second[1]!.data });
    } finally {
      subscription.close();
    }
  });
});
