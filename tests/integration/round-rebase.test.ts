import { afterAll, expect, it } from "vitest";
import type { Db } from "@/lib/db";
import type { OpenDatabase } from "@/lib/db/open-database";
import { LiveRoundEvents } from "@/lib/events/live-round-events";
import { immediateClock, MicroBatchPublisher } from "@/lib/market/ingest/micro-batch-publisher";
import type { RoundEvents } from "@/lib/market/ingest/round-events";
import { runIngestionRound } from "@/lib/market/ingest/run-ingestion-round";
import { LiveOpportunities } from "@/lib/market/opportunities/live-opportunities";
import { publishBatch } from "@/lib/market/opportunities/store";
import type { MarketSnapshot, VenueId } from "@/lib/market/model/types";
import { makeSnapshot } from "@/tests/support/market/make-snapshot";
import { createTestDatabase } from "@/tests/support/test-database";
import { snapshotFetcher } from "./helpers/venue-fetchers";

// A round derives its events while micro-batches go on publishing, and holds them only for its
// last catch-up and its commit: what a batch published meanwhile must come out exactly as if it
// had been published before the round started.

const opened: OpenDatabase[] = [];
afterAll(async () => {
  for (const d of opened) await d.close();
});

const VENUES: VenueId[] = ["binance", "bybit", "okx"];
const BASES = ["BTC", "ETH", "SOL"];

/** Rounds whose rates move every time, on every asset. */
function market(round: () => number, now: () => number) {
  return snapshotFetcher((venue) =>
    BASES.map((base, b) =>
      makeSnapshot({
        exchange: venue,
        base,
        market: `${base}/USDT:USDT`,
        fundingRate: 0.0001 * (((round() + b) * (venue.length + 1)) % 7) - 0.0002,
        fundingIntervalHours: 8,
        observedAt: now(),
      }),
    ),
  );
}

/** Everything a round leaves that readers see: the served items and the change events (in any order: a round appends its rebased assets' last). */
async function published(db: Db) {
  const { items } = await new LiveOpportunities(async () => db).current();
  const events = await db.marketEvent.findMany({ orderBy: { sequence: "asc" }, select: { type: true, data: true } });
  return { items, events: events.map((event) => JSON.stringify(event)).sort() };
}

let index = 0;
const now = () => Date.UTC(2026, 10, 20, 7) + index * 60_000;
const fetcher = market(() => index, now);

/**
 * A database's rounds and batches. `duringEvents` runs after the round derived its events, before
 * it holds the batches; batches are written once `gate` (when given) resolves.
 */
async function side(options: { duringEvents?: () => Promise<void>; gate?: () => Promise<void> } = {}) {
  const database = await createTestDatabase();
  opened.push(database);
  const log = new LiveRoundEvents(5, 180_000);
  const rebasedOn: ReadonlySet<string>[] = [];
  const events: RoundEvents = {
    venueStates: (db) => log.venueStates(db),
    prepareBatch: (batch) => log.prepareBatch(batch),
    appendVenueEvents: (...args) => log.appendVenueEvents(...args),
    deleteExpired: (db, at) => log.deleteExpired(db, at),
    prepare: async (db, round) => {
      const prepared = await log.prepare(db, round);
      await options.duringEvents?.();
      return {
        ...prepared,
        rebased: (bases, items, set) => {
          rebasedOn.push(bases);
          return prepared.rebased(bases, items, set);
        },
      };
    },
  };
  const committed: (() => void)[] = [];
  const publisher = new MicroBatchPublisher({
    db: database.db,
    periodMs: 0,
    events,
    // The rounds' time, so both databases' batches are published at the same moment (the items' ages).
    clock: immediateClock(() => now() + 5_000),
    write: async (...args) => {
      await options.gate?.();
      return publishBatch(...args);
    },
    onPublished: () => committed.shift()?.(),
  });
  return {
    db: database.db,
    rebasedOn,
    round: () => runIngestionRound({ db: database.db, fetcher, venues: VENUES, timeoutMs: 5_000, retention: { rawDays: 7, hourlyDays: 730 }, now, events, batches: publisher }),
    /** Pushes `snapshots`; answers once their batch committed. */
    batch: (snapshots: MarketSnapshot[]) => {
      const done = new Promise<void>((resolve) => committed.push(resolve));
      publisher.push(snapshots);
      return done;
    },
    stop: () => publisher.stop(),
  };
}

/** `base`'s funding moved far on `venue`, observed after the round's own answers. */
const pushed = (venue: VenueId, base: string) => [
  makeSnapshot({ exchange: venue, base, market: `${base}/USDT:USDT`, fundingRate: 0.004 * (index % 2 ? 1 : -1), fundingIntervalHours: 8, observedAt: now() + 1_000 }),
];

it("publishes a round whose events were derived while a batch published as if the batch had come before the round", async () => {
  let inRound = false;
  const rebasing = await side({ duringEvents: async () => void (inRound && (await rebasing.batch(pushed("bybit", "BTC")))) });
  const before = await side();
  for (index = 0; index < 4; index++) {
    // Round 0 is the first set; from round 1 on the batch comes while the round derives its events on one side, before it on the other.
    if (index > 0) await before.batch(pushed("bybit", "BTC"));
    expect((await before.round()).status).toBe("published");
    inRound = index > 0;
    expect((await rebasing.round()).status).toBe("published");
    inRound = false;
    expect(await published(rebasing.db)).toEqual(await published(before.db));
  }
  // The rounds caught up on the batch's asset alone, and only when the batch came during the round.
  expect(rebasing.rebasedOn).toEqual([new Set(["BTC"]), new Set(["BTC"]), new Set(["BTC"])]);
  expect(before.rebasedOn).toEqual([]);
  const { events } = await published(rebasing.db);
  expect(events.filter((e) => e.includes("opportunity.updated")).length).toBeGreaterThan(3);
  for (const s of [rebasing, before]) await s.stop();
}, 120_000);

it("derives again the events of an asset a batch published during the round, though the round had ranked that leg already", async () => {
  // One batch is being written when the round starts; a second leg pushed meanwhile waits for it,
  // so the round ranks that leg (still pending), and the batch publishing it commits while the round
  // derives its events: no leg of the round is older than the set's, yet its events were derived against the set before.
  let open: () => void = () => undefined;
  let gate: Promise<void> = Promise.resolve();
  let entered: () => void = () => undefined;
  let waiting: Promise<void>[] = [];
  const rebasing = await side({
    gate: () => {
      entered();
      return gate;
    },
    duringEvents: async () => {
      open();
      await Promise.all(waiting);
    },
  });
  const before = await side();
  for (index = 0; index < 3; index++) {
    if (index > 0) {
      await before.batch(pushed("okx", "ETH"));
      await before.batch(pushed("bybit", "BTC"));
      gate = new Promise((resolve) => (open = resolve));
      const writing = new Promise<void>((resolve) => (entered = resolve));
      waiting = [rebasing.batch(pushed("okx", "ETH"))];
      await writing;
      waiting.push(rebasing.batch(pushed("bybit", "BTC")));
    }
    expect((await before.round()).status).toBe("published");
    expect((await rebasing.round()).status).toBe("published");
    gate = Promise.resolve();
    expect(await published(rebasing.db)).toEqual(await published(before.db));
  }
  expect(rebasing.rebasedOn).toEqual([new Set(["ETH", "BTC"]), new Set(["ETH", "BTC"])]);
  for (const s of [rebasing, before]) await s.stop();
}, 120_000);
