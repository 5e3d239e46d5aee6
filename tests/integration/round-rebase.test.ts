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
// commit: the assets a batch patched meanwhile keep that batch's pairs (stored as its patch after
// the round's set, their events the batch's), until their next news re-ranks them with the round's
// markets and history. From there, everything must come out as if the batch had come before the round.

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

/** The set as a reader of the database loads it (the round's set and the patches after it). */
async function stored(db: Db) {
  return (await new LiveOpportunities(async () => db).current()).items;
}

/** The pairs of the opportunity events after `sequence`: asset, long venue, short venue. */
async function eventPairs(db: Db, sequence: bigint | number) {
  const events = await db.marketEvent.findMany({ where: { sequence: { gt: sequence }, type: { startsWith: "opportunity." } }, select: { type: true, data: true } });
  type Pair = { symbol: string; long: { exchange: string }; short: { exchange: string } };
  return events.map((e) => (e.type === "opportunity.closed" ? (e.data as Pair) : (e.data as { opportunity: Pair }).opportunity)).map((p) => [p.symbol, p.long.exchange, p.short.exchange]);
}

const lastSequence = async (db: Db) => (await db.marketEvent.findFirst({ orderBy: { sequence: "desc" }, select: { sequence: true } }))?.sequence ?? 0;

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
    prepareCarry: (db, columns) => log.prepareCarry(db, columns),
    appendVenueEvents: (...args) => log.appendVenueEvents(...args),
    deleteExpired: (db, at) => log.deleteExpired(db, at),
    prepare: async (db, round) => {
      const prepared = await log.prepare(db, round);
      await options.duringEvents?.();
      return {
        ...prepared,
        rebased: (scope, set) => {
          if (scope.bases.size > 0) rebasedOn.push(scope.bases);
          return prepared.rebased(scope, set);
        },
      };
    },
  };
  const committed: (() => void)[] = [];
  // This process's in-memory set, as a server's takes its rounds and batches.
  const served = new LiveOpportunities(async () => database.db);
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
    onPublished: (batch) => {
      served.applyBatch(batch);
      committed.shift()?.();
    },
  });
  return {
    db: database.db,
    rebasedOn,
    served: async () => (await served.current()).items,
    round: () =>
      runIngestionRound({
        db: database.db,
        fetcher,
        venues: VENUES,
        timeoutMs: 5_000,
        retention: { rawDays: 7, hourlyDays: 730 },
        now,
        events,
        batches: publisher,
        onPublished: (round) => served.applyRound(round),
      }),
    /** Pushes `snapshots`; answers once their batch committed. */
    batch: (snapshots: MarketSnapshot[]) => {
      const done = new Promise<void>((resolve) => committed.push(resolve));
      publisher.push(snapshots);
      return done;
    },
    stop: () => publisher.stop(),
  };
}

/** `base`'s funding moved far on `venue`, observed `afterMs` after the round's own answers. */
const pushed = (venue: VenueId, base: string, afterMs = 1_000) => [
  makeSnapshot({ exchange: venue, base, market: `${base}/USDT:USDT`, fundingRate: 0.004 * (index % 2 ? 1 : -1) + afterMs * 1e-8, fundingIntervalHours: 8, observedAt: now() + afterMs }),
];

/** News on every venue of `bases` after a round, the same on both sides: each asset re-ranked with the round's markets. */
async function newsAfterRound(sides: { batch: (s: MarketSnapshot[]) => Promise<void> }[], bases: string[]) {
  for (const side of sides) for (const base of bases) await side.batch(pushed("binance", base, 3_000));
}

it("keeps the pairs a batch published while the round derived its events, stored after the round's set, until news re-ranks them with the round's markets", async () => {
  let inRound = false;
  let afterBatch: bigint | number = 0;
  const rebasing = await side({
    duringEvents: async () => {
      if (!inRound) return;
      await rebasing.batch(pushed("bybit", "BTC"));
      afterBatch = await lastSequence(rebasing.db);
    },
  });
  const before = await side();
  for (index = 0; index < 4; index++) {
    // Round 0 is the first set; from round 1 on the batch comes while the round derives its events on one side, before it on the other.
    if (index > 0) await before.batch(pushed("bybit", "BTC"));
    expect((await before.round()).status).toBe("published");
    inRound = index > 0;
    expect((await rebasing.round()).status).toBe("published");
    inRound = false;
    // What the process serves is what the database holds: the round's set, then the batch's patch.
    expect(await rebasing.served()).toEqual(await stored(rebasing.db));
    if (index > 0) {
      // The round's events (appended at its commit, after the batch's) are of the other pairs: those
      // of BTC with a Bybit leg, derived against the set before the batch, are dropped; theirs are the batch's.
      const pairs = await eventPairs(rebasing.db, afterBatch);
      expect(new Set(pairs.map(([symbol]) => symbol))).toEqual(new Set(["ETH", "SOL", "BTC"]));
      expect(pairs.filter(([symbol, long, short]) => symbol === "BTC" && (long === "bybit" || short === "bybit"))).toEqual([]);
      expect((await rebasing.served()).filter((o) => o.symbol === "BTC")).not.toEqual((await before.served()).filter((o) => o.symbol === "BTC"));
      await newsAfterRound([before, rebasing], ["BTC"]);
    }
    expect(await stored(rebasing.db)).toEqual(await stored(before.db));
    expect(await rebasing.served()).toEqual(await before.served());
  }
  // The rounds kept the batch's asset alone, and only when the batch came during the round.
  expect(rebasing.rebasedOn).toEqual([new Set(["BTC"]), new Set(["BTC"]), new Set(["BTC"])]);
  expect(before.rebasedOn).toEqual([]);
  for (const s of [rebasing, before]) await s.stop();
}, 120_000);

it("keeps the pairs of an asset a batch published during the round, though the round had ranked that leg already", async () => {
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
    expect(await rebasing.served()).toEqual(await stored(rebasing.db));
    if (index > 0) await newsAfterRound([before, rebasing], ["ETH", "BTC"]);
    expect(await stored(rebasing.db)).toEqual(await stored(before.db));
    expect(await rebasing.served()).toEqual(await before.served());
  }
  expect(rebasing.rebasedOn).toEqual([new Set(["ETH", "BTC"]), new Set(["ETH", "BTC"])]);
  for (const s of [rebasing, before]) await s.stop();
}, 120_000);
