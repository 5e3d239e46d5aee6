import { describe, expect, it } from "vitest";
import { createAppServices } from "@/lib/app-services";
import { LiveRoundEvents } from "@/lib/events/live-round-events";
import { carryItemsOf, type CarryColumns } from "@/lib/market/carry/carry-columns";
import { rankCarryColumns } from "@/lib/market/carry/carry-pairs";
import { loadCarrySet, publishCarrySet, storeCarrySet } from "@/lib/market/carry/carry-store";
import { LiveCarry } from "@/lib/market/carry/live-carry";
import { carryRound, type PublishedCarry } from "@/lib/market/ingest/carry-round";
import { publishSampleIfNeverLive } from "@/lib/market/ingest/publish-sample-market";
import { PairPersistenceStore } from "@/lib/market/persistence/pair-persistence-store";
import { makeSnapshot } from "@/tests/support/market/make-snapshot";
import { dailyBorrow, makeSpot } from "@/tests/support/market/make-spot";
import { testDatabaseForFile } from "@/tests/support/test-database-for-file";

const database = testDatabaseForFile();
const at = new Date("2026-09-27T13:30:00Z");

describe("the carry set on the database", () => {
  it("publishes ranked items as one row, replaced whole with its version bumped, and reads them back through the live Market", async () => {
    const db = database.db;
    const services = createAppServices(async () => db);
    try {
      const market = services.market("live");
      expect((await market.carryOpportunities()).count).toBe(0);

      const perps = [makeSnapshot({ exchange: "binance", fundingRate: 0.0002 }), makeSnapshot({ exchange: "bybit", fundingRate: -0.0001, markPrice: 300 })];
      const spots = [makeSpot({ exchange: "binance", borrow: dailyBorrow() })];
      // Bybit's perpetual at 300 strays from spot at 100 by far more than 5 %: not paired.
      const first = await publishCarrySet(db, { perps, spots, at, priceBound: 0.05 });
      expect(first).toEqual({ version: 1, count: 2 });
      services.carryPublished();
      const held = await market.carryOpportunities();
      expect(held.asOf).toBe(at.toISOString());
      expect(held.sample).toBe(false);
      expect(held.allItems().map((item) => item.id)).toEqual(["BTC-spot_perp-binance-binance", "BTC-perp_spot-binance-binance"]);
      expect(held.byId("BTC-perp_spot-binance-binance")).toMatchObject({ borrow_apr: 3.65, borrowable: 50 });

      // Without a bound every perpetual pairs; the row is replaced, not added to.
      const second = await publishCarrySet(db, { perps, spots, at: new Date(at.getTime() + 60_000) });
      expect(second).toEqual({ version: 2, count: 4 });
      expect(await db.carrySet.count()).toBe(1);
      const stored = await loadCarrySet(db);
      // By APR: 21.9 (Binance's funding), 10.95 − 3.65 (Bybit's negative funding received, less the borrow), −10.95, −21.9 − 3.65.
      expect(carryItemsOf(stored!.columns).map((item) => [item.id, item.apr])).toEqual([
        ["BTC-spot_perp-binance-binance", 21.9],
        ["BTC-perp_spot-bybit-binance", 7.3],
        ["BTC-spot_perp-binance-bybit", -10.95],
        ["BTC-perp_spot-binance-binance", -25.55],
      ]);
      // A reader in another process sees it once its version check comes round.
      const reader = new LiveCarry(async () => db, 0);
      expect((await reader.current()).count).toBe(4);
      await publishCarrySet(db, { perps: perps.slice(0, 1), spots, at: new Date(at.getTime() + 120_000) });
      await reader.current();
      await expect.poll(async () => (await reader.current()).count).toBe(2);
    } finally {
      await services.stopRecorders();
    }
  });

  it("holds the offline sample's carry set, labelled sample, when the sample is published on a fresh database", async () => {
    const db = database.db;
    await db.opportunitySet.deleteMany();
    await db.carrySet.deleteMany();
    expect(await publishSampleIfNeverLive(db)).toBeGreaterThan(0);
    const reader = new LiveCarry(async () => db);
    const sample = await reader.current();
    expect(sample.sample).toBe(true);
    expect(sample.count).toBeGreaterThan(10);
    expect(new Set(sample.allItems().map((item) => item.type))).toEqual(new Set(["spot_perp", "perp_spot"]));
    const opportunities = await db.opportunitySet.findUniqueOrThrow({ where: { id: "live" } });
    expect(sample.asOf).toBe(opportunities.asOf.toISOString());
  });

  it("appends the carry events with the set they describe, the first live set after the sample being their baseline", async () => {
    const db = database.db;
    // The database holds the sample's carry set (the test before).
    expect((await loadCarrySet(db))?.sample).toBe(true);
    const publish = async (log: LiveRoundEvents, columns: CarryColumns, minute: number) => {
      const prepared = await log.prepareCarry(db, columns);
      const version = await storeCarrySet(db, columns, { at: new Date(at.getTime() + minute * 60_000), sample: false }, prepared.statements);
      prepared.committed(version);
    };
    const carryEventTypes = async () =>
      (await db.marketEvent.findMany({ where: { type: { startsWith: "carry_opportunity." } }, orderBy: { sequence: "asc" } })).map((e) => [e.type, (e.data as { opportunity?: { id: string }; id?: string }).opportunity?.id ?? (e.data as { id: string }).id]);
    const log = new LiveRoundEvents(5, 180_000);
    const spots = [makeSpot({ exchange: "binance", borrow: dailyBorrow() }), makeSpot({ exchange: "okx" })];
    const first = rankCarryColumns([makeSnapshot({ exchange: "bybit", fundingRate: 0.0001 })], spots);
    await publish(log, first, 0);
    expect(await carryEventTypes()).toEqual([]);
    // Bybit's funding triples (10.95 → 32.85 % a year: every item moves 21.9 points) and OKX's spot goes.
    const second = rankCarryColumns([makeSnapshot({ exchange: "bybit", fundingRate: 0.0003 })], spots.slice(0, 1));
    await publish(log, second, 1);
    expect(await carryEventTypes()).toEqual([
      ["carry_opportunity.updated", "BTC-spot_perp-binance-bybit"],
      ["carry_opportunity.updated", "BTC-perp_spot-bybit-binance"],
      ["carry_opportunity.closed", "BTC-spot_perp-okx-bybit"],
    ]);
    // A process starting afresh diffs against the stored set: the same set again is no news.
    await publish(new LiveRoundEvents(5, 180_000), second, 2);
    expect(await carryEventTypes()).toHaveLength(3);
  });

  it("ranks each round's carry set in memory the set served does not hold: each published set reads as stored while the next is ranked", async () => {
    const db = database.db;
    const published: PublishedCarry[] = [];
    const publishRound = carryRound({ db, events: new LiveRoundEvents(5, 180_000), persistence: new PairPersistenceStore(db), priceBound: undefined, onPublished: (carry) => published.push(carry) });
    const spots = [makeSpot({ exchange: "binance", borrow: dailyBorrow() }), makeSpot({ exchange: "okx" })];
    const storedItems: ReturnType<typeof carryItemsOf>[] = [];
    for (const [round, rate] of [0.0001, 0.0003, -0.0002, 0.0005].entries()) {
      const perps = [makeSnapshot({ exchange: "bybit", fundingRate: rate }), makeSnapshot({ exchange: "gate", fundingRate: rate / 2 })];
      await publishRound(spots, perps, new Date(at.getTime() + round * 60_000));
      storedItems.push(carryItemsOf((await loadCarrySet(db))!.columns));
      expect(carryItemsOf(published[round]!.columns)).toEqual(storedItems[round]);
      // The set served while this round ranked (the round before's) is as it was stored.
      if (round > 0) expect(carryItemsOf(published[round - 1]!.columns)).toEqual(storedItems[round - 1]);
    }
  });
});
