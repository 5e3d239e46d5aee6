import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "@/lib/db";
import type { OpenDatabase } from "@/lib/db/open-database";
import { appendEventStatements, eventsAppended } from "@/lib/events/append-events";
import type { NewEvent } from "@/lib/events/event-data";
import { EventFeed, TAKEN_AT_A_TIME, type FeedEvent } from "@/lib/events/event-feed";
import { readEventPage } from "@/lib/events/read-events";
import { appendEventsQuietly } from "@/tests/support/append-events-quietly";
import { createTestDatabase } from "@/tests/support/test-database";

let database: OpenDatabase;
/** The database with its event reads counted: what the feed read back from the log. */
let counted: Db;
let reads = 0;
/** How long each read of the log waits after its query before answering (a slow database). */
let readLag = 0;

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
              return async (...args: unknown[]) => {
                reads += 1;
                const rows = await ((value as (...a: unknown[]) => unknown).apply(events, args) as Promise<unknown>);
                if (readLag > 0) await new Promise((resolve) => setTimeout(resolve, readLag));
                return rows;
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

  it("hands a large append on in parts with turns of the event loop between, the first at once, and what this process appends meanwhile after it, in order", async () => {
    const feed = new EventFeed(async () => counted, 3_600_000);
    const parts: { sequences: bigint[]; continued: boolean }[] = [];
    const subscription = await feed.subscribe((batch, continued) => parts.push({ sequences: batch.map((e) => e.sequence), continued }));
    try {
      const large = events(2 * TAKEN_AT_A_TIME + 5);
      const range = await append(large);
      const small = events(2);
      const after = await append(small);
      const readsBefore = reads;
      eventsAppended().notify({ mode: "live", events: large, range });
      // The first part in the notification's own turn; the rest later.
      expect(parts.map((p) => p.sequences.length)).toEqual([TAKEN_AT_A_TIME]);
      let turnsTaken = 0;
      const counting = setInterval(() => (turnsTaken += 1), 0);
      eventsAppended().notify({ mode: "live", events: small, range: after });
      expect(parts).toHaveLength(1);
      await expect.poll(() => parts.length).toBe(4);
      clearInterval(counting);
      expect(parts.map((p) => [p.sequences.length, p.continued])).toEqual([
        [TAKEN_AT_A_TIME, false],
        [TAKEN_AT_A_TIME, true],
        [5, true],
        [2, false],
      ]);
      const sequences = parts.flatMap((p) => p.sequences);
      expect(sequences).toEqual(Array.from({ length: large.length + small.length }, (_, i) => range.first + BigInt(i)));
      expect(sequences.at(-1)).toBe(after.last);
      // Taken as given, not read back; and the event loop turned while the parts were handed on.
      expect(reads).toBe(readsBefore);
      expect(turnsTaken).toBeGreaterThan(0);
    } finally {
      subscription.close();
    }
  });

  it("stops handing an append on once no one subscribes", async () => {
    const feed = new EventFeed(async () => counted, 3_600_000);
    let received = 0;
    const subscription = await feed.subscribe((batch) => (received += batch.length));
    const large = events(3 * TAKEN_AT_A_TIME);
    const range = await append(large);
    eventsAppended().notify({ mode: "live", events: large, range });
    subscription.close();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(received).toBe(TAKEN_AT_A_TIME);
  });

  it("takes what this process appended while it read the log after the read, passing over what the read delivered", async () => {
    const feed = new EventFeed(async () => counted, 3_600_000);
    const received: FeedEvent[] = [];
    const subscription = await feed.subscribe((batch) => received.push(...batch));
    readLag = 200;
    try {
      // Read by the log (another writer's), then one of this process's appends taken as given.
      const earlier = events(2);
      const read = await append(earlier);
      const readsBefore = reads;
      eventsAppended().notify();
      await expect.poll(() => reads).toBe(readsBefore + 1);
      // While that read waits on the database: an append the read's query saw the end of (its
      // events delivered by the read) is handed over after, and one it did not see is taken.
      eventsAppended().notify({ mode: "live", events: earlier, range: read });
      const later = events(3);
      const range = await append(later);
      eventsAppended().notify({ mode: "live", events: later, range });
      await expect.poll(() => received.length).toBe(5);
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(received.map((e) => e.sequence)).toEqual([read.first, read.last, range.first, range.first + 1n, range.last]);
      expect(reads).toBe(readsBefore + 1);
    } finally {
      readLag = 0;
      subscription.close();
    }
  });
});
