import { afterAll, expect, it, vi } from "vitest";
import type { Db } from "@/lib/db";
import type { OpenDatabase } from "@/lib/db/open-database";
import { RoundMemory, type RecalledRounds } from "@/lib/market/ingest/round-memory";
import { runIngestionRound } from "@/lib/market/ingest/run-ingestion-round";
import { LiveOpportunities } from "@/lib/market/opportunities/live-opportunities";
import type { VenueId } from "@/lib/market/model/types";
import { makeSnapshot } from "@/tests/support/market/make-snapshot";
import { createTestDatabase } from "@/tests/support/test-database";
import { snapshotFetcher } from "./helpers/venue-fetchers";

const HOUR = 3_600_000;
const opened: OpenDatabase[] = [];
afterAll(async () => {
  for (const d of opened) await d.close();
});

async function freshDb(): Promise<Db> {
  const database = await createTestDatabase();
  opened.push(database);
  return database.db;
}

/**
 * A scripted market: three venues, two assets, rounds a minute apart from 07:58. Bybit's rate
 * moves every round; funding settles at 08:00; okx is stale in the third round (its previous
 * observations then come from an older round); bybit's BTC interval drops to 1 h in the third.
 */
function market(round: () => number, now: () => number) {
  return snapshotFetcher((venue: VenueId) => {
    if (!["binance", "bybit", "okx"].includes(venue) || (venue === "okx" && round() === 2)) return [];
    return ["BTC", "ETH"].map((base) => {
      const oneHour = venue === "bybit" && base === "BTC" && round() >= 2;
      const settleAt = Date.UTC(2026, 10, 20, 8);
      return makeSnapshot({
        exchange: venue,
        base,
        market: `${base}/USDT:USDT`,
        fundingRate: venue === "bybit" ? 0.0001 * (round() + 1) : venue === "okx" ? -0.0002 : 0.00015,
        fundingIntervalHours: oneHour ? 1 : 8,
        observedAt: now(),
        nextFundingAt: now() < settleAt ? settleAt : oneHour ? settleAt + HOUR * Math.ceil((now() - settleAt) / HOUR) : settleAt + 8 * HOUR,
      });
    });
  });
}

/** What a round leaves that later rounds and the API read: the live set's items, the settlements, the interval changes. */
async function stored(db: Db) {
  const { items } = await new LiveOpportunities(async () => db).current();
  const settlements = await db.fundingRate.findMany({ orderBy: [{ exchange: "asc" }, { market: "asc" }, { time: "asc" }] });
  const changes = await db.fundingIntervalChange.findMany({ orderBy: [{ exchange: "asc" }, { market: "asc" }] });
  return {
    items: items.map(({ updated_at: _updated, ...rest }) => rest),
    settlements: settlements.map(({ exchange, market, time, rate }) => ({ exchange, market, time: time.getTime(), rate })),
    changes: changes.map(({ exchange, market, effectiveAt, fromHours, toHours }) => ({ exchange, market, effectiveAt: effectiveAt.getTime(), fromHours, toHours })),
  };
}

/**
 * Two new databases and a round memory whose recalls are recorded, and `run`, which runs round `i`
 * of the scripted market (`t0` + i minutes) on one of them, with or without the memory.
 */
async function scriptedRounds(t0: number) {
  const withMemory = await freshDb();
  const without = await freshDb();
  const memory = new RoundMemory();
  const recall = vi.spyOn(memory, "recall");
  let index = 0;
  const now = () => t0 + index * 60_000;
  const fetcher = market(() => index, now);
  const run = (db: Db, i: number, roundMemory?: RoundMemory) => {
    index = i;
    return runIngestionRound({ db, fetcher, timeoutMs: 5_000, retention: { rawDays: 7, hourlyDays: 730 }, now, memory: roundMemory });
  };
  /** What each recall answered, in order. */
  const recalled = () => Promise.all(recall.mock.results.map((r) => r.value as Promise<RecalledRounds | undefined>));
  return { withMemory, without, memory, run, recalled };
}

it("a round from memory publishes and stores exactly what one reading everything back does, and reads back again after another process's round", async () => {
  const { withMemory, without, memory, run, recalled } = await scriptedRounds(Date.UTC(2026, 10, 20, 7, 58));
  for (let i = 0; i < 6; i++) {
    // Round 4 on the remembering database is another process's: it has no memory of this one's.
    const outcome = await run(withMemory, i, i === 4 ? undefined : memory);
    const reference = await run(without, i);
    expect(outcome.status).toBe("published");
    expect(outcome.settlements).toBe(reference.settlements);
    expect(await stored(withMemory)).toEqual(await stored(without));
  }
  // Rounds 0 and 5 read the database (nothing remembered yet; another round came between); 1–3 recall.
  expect((await recalled()).map((r) => r !== undefined)).toEqual([false, true, true, true, false]);
  // The script did exercise what memory must carry: settlements and an interval change.
  const { settlements, changes } = await stored(withMemory);
  expect(settlements.length).toBeGreaterThan(0);
  expect(changes).toHaveLength(1);
}, 120_000);

it("takes the hour's live averages from memory only while nothing but its own rounds folded into them", async () => {
  // Every round within one hour, so each may take the live sums its predecessor left.
  const { withMemory, without, memory, run, recalled } = await scriptedRounds(Date.UTC(2026, 10, 20, 8, 10));
  // A round another process began at 07:45 and died in, with one observation of this hour: the
  // retention of the first round after it has been running ten minutes folds it, beside that round's.
  const killedRound = async (db: Db) => {
    const round = await db.ingestionRound.create({ data: { startedAt: new Date(Date.UTC(2026, 10, 20, 7, 45)), status: "running" } });
    const { exchange, market: name, base, venueMarketId, venueBase, contractMultiplier, quote, settle } = makeSnapshot({ exchange: "binance", base: "BTC", market: "BTC/USDT:USDT" });
    await db.roundSnapshot.create({
      data: { roundId: round.id, exchange, market: name, base, venueMarketId, venueBase, contractMultiplier, quote, settle, fundingRate: 0.003, fundingIntervalHours: 8, observedAt: new Date(Date.UTC(2026, 10, 20, 8, 5)) },
    });
  };
  for (let i = 0; i < 4; i++) {
    if (i === 2) for (const db of [withMemory, without]) await killedRound(db);
    const outcome = await run(withMemory, i, memory);
    await run(without, i);
    expect(outcome.status).toBe("published");
    expect(await stored(withMemory)).toEqual(await stored(without));
  }
  const answers = await recalled();
  // Round 0 remembers nothing; 1 and 2 take the live sums; 3 reads them, since 2's retention folded the killed round.
  expect(answers.map((r) => r?.liveSums !== undefined)).toEqual([false, true, true, false]);
  expect(answers[3]).toBeDefined();
  // The sets compared above carry the averages the memory feeds.
  const { items } = await new LiveOpportunities(async () => withMemory).current();
  expect(items.filter((item) => item.symbol === "BTC").every((item) => typeof item.apr_1d_avg === "number")).toBe(true);
}, 120_000);
