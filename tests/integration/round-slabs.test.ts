import { afterAll, expect, it, vi } from "vitest";
import type { Db } from "@/lib/db";
import type { OpenDatabase } from "@/lib/db/open-database";
import { LiveRoundEvents } from "@/lib/events/live-round-events";
import { immediateClock, MicroBatchPublisher } from "@/lib/market/ingest/micro-batch-publisher";
import { runIngestionRound, type IngestionRoundOptions } from "@/lib/market/ingest/run-ingestion-round";
import { LiveOpportunities } from "@/lib/market/opportunities/live-opportunities";
import { ColumnSlabs, type ColumnArrays } from "@/lib/market/opportunities/opportunity-columns";
import type { VenueId } from "@/lib/market/model/types";
import { makeSnapshot } from "@/tests/support/market/make-snapshot";
import { createTestDatabase } from "@/tests/support/test-database";
import { snapshotFetcher } from "./helpers/venue-fetchers";
import { VenueThread } from "@/lib/market/ingest/venue-thread";

const opened: OpenDatabase[] = [];
afterAll(async () => {
  for (const d of opened) await d.close();
});

/**
 * Rounds whose sets change every time: rates move by tens of APR points (updated), an asset comes
 * and goes on two venues (opened, closed), a venue is stale for a round.
 */
function market(round: () => number, now: () => number) {
  return snapshotFetcher((venue: VenueId) => {
    if (venue === "okx" && round() === 3) return [];
    const bases = round() % 2 === 1 && venue !== "binance" ? ["BTC", "ETH", "SOL"] : ["BTC", "ETH"];
    return bases.map((base, b) =>
      makeSnapshot({
        exchange: venue,
        base,
        market: `${base}/USDT:USDT`,
        fundingRate: 0.0001 * (((round() + b) * (venue.length + 1)) % 7) - 0.0002,
        fundingIntervalHours: 8,
        observedAt: now(),
      }),
    );
  });
}

/** Column memory for rounds, each piece it hands out recorded in `taken`. */
function recordedSlabs() {
  const slabs = new ColumnSlabs();
  const taken: ColumnArrays[] = [];
  const take = slabs.take.bind(slabs);
  vi.spyOn(slabs, "take").mockImplementation((count) => {
    const columns = take(count);
    taken.push(columns);
    return columns;
  });
  return { slabs, taken };
}

/** The rounds' columns were in two slabs, each round's in the one the round before last had. */
function expectTwoSlabsInTurn(taken: readonly ColumnArrays[]) {
  const slabOf = taken.map((columns) => columns.apr.values.buffer);
  expect(new Set(slabOf).size).toBe(2);
  for (let i = 2; i < slabOf.length; i++) expect(slabOf[i]).toBe(slabOf[i - 2]);
}

/** Everything a round leaves that readers see: the served items and the change events. */
async function published(db: Db) {
  const { items } = await new LiveOpportunities(async () => db).current();
  const events = await db.marketEvent.findMany({ orderBy: { sequence: "asc" }, select: { type: true, data: true } });
  return { items, events };
}

it("rounds ranking into reused column memory publish and diff exactly what rounds in new memory do", async () => {
  const [reusing, fresh] = await Promise.all([createTestDatabase(), createTestDatabase()]);
  opened.push(reusing, fresh);
  const { slabs, taken } = recordedSlabs();
  const [eventsReusing, eventsFresh] = [new LiveRoundEvents(5, 180_000), new LiveRoundEvents(5, 180_000)];
  let index = 0;
  const now = () => Date.UTC(2026, 10, 20, 7) + index * 60_000;
  const fetcher = market(() => index, now);
  const venues: VenueId[] = ["binance", "bybit", "okx"];
  const run = (db: Db, events: LiveRoundEvents, withSlabs?: ColumnSlabs) =>
    runIngestionRound({ db, fetcher, venues, timeoutMs: 5_000, retention: { rawDays: 7, hourlyDays: 730 }, now, events, slabs: withSlabs });

  for (index = 0; index < 6; index++) {
    expect((await run(reusing.db, eventsReusing, slabs)).status).toBe("published");
    expect((await run(fresh.db, eventsFresh)).status).toBe("published");
    expect(await published(reusing.db)).toEqual(await published(fresh.db));
  }
  const { events } = await published(reusing.db);
  expect(new Set(events.map((e) => e.type))).toEqual(new Set(["opportunity.opened", "opportunity.updated", "opportunity.closed", "venue.stale", "venue.recovered"]));
  // Two slabs in turn: a round's set is compared with by the next round, then its memory is the one after's.
  expectTwoSlabsInTurn(taken);
}, 120_000);

it("rounds with micro-batches patching their sets between them give a round's memory back only once nothing reads it", async () => {
  const [reusing, fresh] = await Promise.all([createTestDatabase(), createTestDatabase()]);
  opened.push(reusing, fresh);
  const { slabs, taken } = recordedSlabs();
  const { run } = roundsWithBatches([
    { db: reusing.db, slabs },
    { db: fresh.db, slabs: undefined },
  ]);
  await run(async () => expect(await published(reusing.db)).toEqual(await published(fresh.db)));
  const { events } = await published(reusing.db);
  expect(events.filter((e) => e.type === "opportunity.updated").length).toBeGreaterThan(6);
  // The rounds' two slabs still take turns: the one under a set the batches patched comes back at the next round's commit.
  expectTwoSlabsInTurn(taken);
}, 120_000);

it("rounds ranked on the venue thread, micro-batches between them, publish and diff what rounds ranked here do; one whose ranker fails ranks here", async () => {
  const [elsewhere, here] = await Promise.all([createTestDatabase(), createTestDatabase()]);
  opened.push(elsewhere, here);
  const thread = new VenueThread({ fetcherModule: new URL("./helpers/thread-venue-fetcher.ts", import.meta.url).href });
  const onThread = thread.ranker();
  let asked = 0;
  const { run } = roundsWithBatches([
    {
      db: elsewhere.db,
      slabs: new ColumnSlabs(),
      ranker: (snapshots, history) => (++asked === 4 ? Promise.reject(new Error("the venue thread is gone")) : onThread(snapshots, history)),
    },
    { db: here.db, slabs: undefined },
  ]);
  try {
    await run(async () => expect(await published(elsewhere.db)).toEqual(await published(here.db)));
  } finally {
    await thread.close();
  }
  expect(asked).toBe(6);
  const { events } = await published(elsewhere.db);
  expect(new Set(events.map((e) => e.type))).toEqual(new Set(["opportunity.opened", "opportunity.updated", "opportunity.closed", "venue.stale", "venue.recovered"]));
}, 120_000);

/**
 * Six rounds on each database, two micro-batches on each round's set (one asset's funding moved
 * far, then another's), `check` after each round's batches. Each database has its event log and a
 * publisher whose batches start at once.
 */
function roundsWithBatches(databases: { db: Db; slabs: ColumnSlabs | undefined; ranker?: IngestionRoundOptions["ranker"] }[]) {
  let index = 0;
  const now = () => Date.UTC(2026, 10, 20, 7) + index * 60_000;
  const fetcher = market(() => index, now);
  const venues: VenueId[] = ["binance", "bybit", "okx"];
  const sides = databases.map(({ db, slabs, ranker }) => {
    const events = new LiveRoundEvents(5, 180_000);
    let committed: () => void = () => undefined;
    const publisher = new MicroBatchPublisher({
      db,
      periodMs: 0,
      events,
      // The rounds' time, so both databases' batches are published at the same moment (the items' ages).
      clock: immediateClock(() => now() + 5_000),
      onPublished: () => committed(),
    });
    return {
      round: () => runIngestionRound({ db, fetcher, venues, timeoutMs: 5_000, retention: { rawDays: 7, hourlyDays: 730 }, now, events, slabs, batches: publisher, ranker }),
      /** Pushes `snapshots` and waits for their batch to commit. */
      batch: (snapshots: ReturnType<typeof makeSnapshot>[]) => {
        const done = new Promise<void>((resolve) => (committed = resolve));
        publisher.push(snapshots);
        return done;
      },
      stop: () => publisher.stop(),
    };
  });
  const run = async (check: () => Promise<void>) => {
    try {
      for (index = 0; index < 6; index++) {
        for (const s of sides) expect((await s.round()).status).toBe("published");
        for (const [n, base] of ["BTC", "ETH"].entries()) {
          const pushed = venues.map((venue, v) =>
            makeSnapshot({ exchange: venue, base, market: `${base}/USDT:USDT`, fundingRate: 0.002 * (((index + n + v) % 3) - 1), fundingIntervalHours: 8, observedAt: now() + 1_000 * (n + 1) }),
          );
          for (const s of sides) await s.batch(pushed);
        }
        await check();
      }
    } finally {
      for (const s of sides) await s.stop();
    }
  };
  return { run };
}
