import { beforeAll, describe, expect, it } from "vitest";
import type { Db } from "@/lib/db";
import { LiveRoundEvents } from "@/lib/events/live-round-events";
import type { CarryOpportunity } from "@/lib/market/carry/carry-opportunity";
import { carryItemsOf } from "@/lib/market/carry/carry-columns";
import { carryRound } from "@/lib/market/ingest/carry-round";
import { runIngestionRound } from "@/lib/market/ingest/run-ingestion-round";
import { LiveOpportunities } from "@/lib/market/opportunities/live-opportunities";
import { borrowedSpot } from "@/lib/market/persistence/borrowed-spot";
import { HELD_SPOT } from "@/lib/market/persistence/held-spot";
import { PairPersistenceStore } from "@/lib/market/persistence/pair-persistence-store";
import { UNKNOWN_PERSISTENCE, type Opportunity } from "@/lib/market/model/types";
import { delayedOpportunities } from "@/lib/screener/delayed-opportunities";
import { makeSnapshot } from "@/tests/support/market/make-snapshot";
import { dailyBorrow, makeSpot } from "@/tests/support/market/make-spot";
import { testDatabaseForFile } from "@/tests/support/test-database-for-file";
import { listOpportunitiesAsPro } from "./helpers/list-opportunities";
import { snapshotFetcher } from "./helpers/venue-fetchers";

const HOUR = 3_600_000;
/** The rounds' moment; the persistence is of the 720 hours before 16:00, an 8h settlement mark. */
const AT = Date.UTC(2026, 10, 23, 16, 5);
const THROUGH = Date.UTC(2026, 10, 23, 16);
const hourAt = (i: number) => THROUGH - (720 - i) * HOUR;
const iso = (ms: number) => new Date(ms).toISOString();

const database = testDatabaseForFile();
let db: Db;
beforeAll(async () => {
  db = database.db;
});

/**
 * 30 days of stored history of BTC on three venues (hour i of the window, 0 the oldest):
 * - binance (8h): 10 % a year every hour; settles 0.0001 every 8h;
 * - okx (8h): 30 %, in the last 168 hours 25 % and 35 % by turns; hour 500 missing (the venue was
 *   down); settles 0.0003 every 8h;
 * - hyperliquid (1h): only the last 168 hours, 18 % and 22 % by turns in step with okx; settles
 *   hourly, 0.00001 for its first 42 hours (below binance's 0.0000125 an hour), then 0.00002.
 */
async function seedHistory() {
  const hourly: { exchange: string; market: string; hour: number; apr: number }[] = [];
  for (let i = 0; i < 720; i++) {
    const lastWeek = i >= 552;
    const even = i % 2 === 0;
    hourly.push({ exchange: "binance", market: "BTC/USDT:USDT", hour: hourAt(i), apr: 10 });
    if (i !== 500) hourly.push({ exchange: "okx", market: "BTC/USDT:USDT", hour: hourAt(i), apr: lastWeek ? (even ? 25 : 35) : 30 });
    if (lastWeek) hourly.push({ exchange: "hyperliquid", market: "BTC/USDC:USDC", hour: hourAt(i), apr: even ? 18 : 22 });
  }
  await db.fundingRateHourly.createMany({
    data: hourly.map((h) => ({
      exchange: h.exchange,
      market: h.market,
      base: "BTC",
      hour: new Date(h.hour),
      samples: 2,
      rateSum: 0,
      aprSum: h.apr * 2,
      rateMin: 0,
      rateMax: 0,
    })),
  });
  const settlements = [];
  for (let k = 1; k <= 21; k++) {
    const time = new Date(THROUGH - 168 * HOUR + k * 8 * HOUR);
    settlements.push({ exchange: "binance", market: "BTC/USDT:USDT", base: "BTC", time, rate: 0.0001, intervalHours: 8, source: "observed" });
    settlements.push({ exchange: "okx", market: "BTC/USDT:USDT", base: "BTC", time, rate: 0.0003, intervalHours: 8, source: "observed" });
  }
  for (let k = 1; k <= 168; k++) {
    const time = new Date(THROUGH - 168 * HOUR + k * HOUR);
    settlements.push({ exchange: "hyperliquid", market: "BTC/USDC:USDC", base: "BTC", time, rate: k <= 42 ? 0.00001 : 0.00002, intervalHours: 1, source: "observed" });
  }
  await db.fundingRate.createMany({ data: settlements });
}

/**
 * Borrow rates stored beside the funding (hour i of the window), and an ETH perpetual whose funding
 * is negative, so a carry long the perpetual and short borrowed spot pays off:
 * - bybit ETH/USDT:USDT: −20 % a year every hour; settles −0.0002 every 8h (−0.000025 an hour);
 * - bybit lends ETH at 5 % a year, in the last 168 hours 30 % and 10 % by turns; hour 400 not stored;
 * - okx lent ETH until hour 400 only: not lending in the last 24 hours;
 * - binance lends BTC at 4 % every hour.
 */
async function seedBorrowHistory() {
  const hourly = [];
  const borrow = [];
  for (let i = 0; i < 720; i++) {
    hourly.push({ exchange: "bybit", market: "ETH/USDT:USDT", base: "ETH", hour: new Date(hourAt(i)), samples: 1, rateSum: 0, aprSum: -20, rateMin: 0, rateMax: 0 });
    const rate = (exchange: string, asset: string, aprPct: number) => ({
      exchange,
      asset,
      time: new Date(hourAt(i)),
      rate: aprPct / 100 / 8760,
      period: "hour",
      aprPct,
      borrowable: null,
      source: "test",
      observedAt: new Date(hourAt(i) + 60_000),
    });
    if (i !== 400) borrow.push(rate("bybit", "ETH", i < 552 ? 5 : i % 2 === 0 ? 30 : 10));
    if (i <= 400) borrow.push(rate("okx", "ETH", 5));
    borrow.push(rate("binance", "BTC", 4));
  }
  await db.fundingRateHourly.createMany({ data: hourly });
  await db.borrowRate.createMany({ data: borrow });
  await db.fundingRate.createMany({
    data: Array.from({ length: 21 }, (_, k) => ({
      exchange: "bybit",
      market: "ETH/USDT:USDT",
      base: "ETH",
      time: new Date(THROUGH - 168 * HOUR + (k + 1) * 8 * HOUR),
      rate: -0.0002,
      intervalHours: 8,
      source: "observed",
    })),
  });
}

/** Binance 10.95 %, Hyperliquid 17.52 %, OKX 32.85 % a year now: long the cheaper of each pair. */
const fetcher = snapshotFetcher((venue) => {
  const observedAt = AT;
  if (venue === "binance") return [makeSnapshot({ exchange: venue, fundingRate: 0.0001, observedAt })];
  if (venue === "okx") return [makeSnapshot({ exchange: venue, fundingRate: 0.0003, observedAt })];
  if (venue === "hyperliquid") {
    return [makeSnapshot({ exchange: venue, market: "BTC/USDC:USDC", settle: "USDC", quote: "USDC", fundingRate: 0.00002, fundingIntervalHours: 1, observedAt })];
  }
  return [];
});

async function listed(query: string): Promise<Opportunity[]> {
  return (await listOpportunitiesAsPro(db, query)).items;
}

describe("opportunity persistence from stored history", () => {
  const store = () => new PairPersistenceStore(db);
  let persistence: PairPersistenceStore;
  const round = (at: number) =>
    runIngestionRound({ db, fetcher, timeoutMs: 5_000, retention: { rawDays: 7, hourlyDays: 730 }, now: () => at, persistence });

  beforeAll(async () => {
    await seedHistory();
    await seedBorrowHistory();
    persistence = store();
  });

  it("is unknown until an hour's set is computed, which the round starts without waiting for", async () => {
    expect((await round(AT)).status).toBe("published");
    for (const o of await listed("")) expect(o.persistence, o.id).toEqual(UNKNOWN_PERSISTENCE);
    await persistence.refresh(new Date(AT));
    const stored = await db.pairPersistenceSet.findMany();
    expect(stored.map((s) => [s.through.getTime(), s.pairs !== null])).toEqual([[THROUGH, true]]);
  }, 60_000);

  it("is served on /v1/opportunities from the next round on, with the documented figures", async () => {
    expect((await round(AT + 60_000)).status).toBe("published");
    const byId = new Map((await listed("")).map((o) => [o.id, o.persistence]));
    /** The persistence of a pair positive since `hour`, as of THROUGH. */
    const since = (hour: number, figures: Record<string, number | null>) => ({ as_of: iso(THROUGH), positive_since: iso(hourAt(hour)), ...figures });
    // OKX was not observed in hour 500: the run starts after it. 7 days: 84 hours each of 15 and 25;
    // 30 days: 551 hours of 20 besides them.
    expect(byId.get("BTC-binance-okx")).toEqual(since(501, { apr_median_7d: 20, apr_median_30d: 20, paid_share_7d: 1, apr_stddev_7d: 5 }));
    // Hyperliquid's history begins with the last 168 hours: too short for 30 days. 7 and 13 by turns.
    expect(byId.get("BTC-hyperliquid-okx")).toEqual(since(552, { apr_median_7d: 10, apr_median_30d: null, paid_share_7d: 1, apr_stddev_7d: 3 }));
    // 8 and 12 by turns. An 8h leg against a 1h one, per hour: the first 42 of 168 settled hours paid the long leg more.
    expect(byId.get("BTC-binance-hyperliquid")).toEqual(since(552, { apr_median_7d: 10, apr_median_30d: null, paid_share_7d: 0.75, apr_stddev_7d: 2 }));
  }, 60_000);

  it("measures each perpetual against spot held, as a carry trade collects its funding", async () => {
    const set = (await persistence.current())!;
    const held = (exchange: string, market = "BTC/USDT:USDT") => set.persistenceOf(HELD_SPOT, { exchange, market });
    // OKX alone: 30 % but for hour 500, 25 and 35 by turns in the last week; every settled hour paid.
    expect(held("okx")).toEqual({ as_of: iso(THROUGH), positive_since: iso(hourAt(501)), apr_median_7d: 30, apr_median_30d: 30, paid_share_7d: 1, apr_stddev_7d: 5 });
    // Binance paid 10 % every hour of the window: positive since its first hour, never varying.
    expect(held("binance")).toEqual({ as_of: iso(THROUGH), positive_since: iso(hourAt(0)), apr_median_7d: 10, apr_median_30d: 10, paid_share_7d: 1, apr_stddev_7d: 0 });
    // Spot held is the long side: the other orientation would be a perpetual long against spot sold.
    expect(set.persistenceOf({ exchange: "okx", market: "BTC/USDT:USDT" }, HELD_SPOT)?.apr_median_7d).toBe(-30);
    expect(held("hyperliquid", "BTC/USDC:USDC")?.apr_median_30d).toBeNull();
  }, 60_000);

  it("measures each perpetual long against the asset borrowed on each venue lending it, as a perp_spot carry earns", async () => {
    const set = (await persistence.current())!;
    const bybitEth = { exchange: "bybit", market: "ETH/USDT:USDT" };
    // Minus funding minus borrow: 20 − 5 = 15 for 30 days but hour 400; then 20 − 30 and 20 − 10 by
    // turns (−10 and 10, the last hour 10). 7 days: 84 each of −10 and 10, median 0, deviation 10;
    // 30 days: 551 hours of 15 besides them. The hours borrowing at 10 % (0.0000114 an hour) paid the
    // carry, those at 30 % (0.0000342) cost more than funding's 0.000025 paid.
    expect(set.persistenceOf(bybitEth, borrowedSpot("bybit", "ETH"))).toEqual({
      as_of: iso(THROUGH),
      positive_since: iso(hourAt(719)),
      apr_median_7d: 0,
      apr_median_30d: 15,
      paid_share_7d: 0.5,
      apr_stddev_7d: 10,
    });
    // Borrowing BTC at 4 % against funding of 10 %: −14 every hour, never paid off.
    expect(set.persistenceOf({ exchange: "binance", market: "BTC/USDT:USDT" }, borrowedSpot("binance", "BTC"))).toEqual({
      as_of: iso(THROUGH),
      positive_since: null,
      apr_median_7d: -14,
      apr_median_30d: -14,
      paid_share_7d: 0,
      apr_stddev_7d: 0,
    });
    // OKX stopped lending ETH a day before: no pair. Hyperliquid's BTC history is too short for 30 days.
    expect(set.persistenceOf(bybitEth, borrowedSpot("okx", "ETH"))).toBeUndefined();
    expect(set.persistenceOf({ exchange: "hyperliquid", market: "BTC/USDC:USDC" }, borrowedSpot("binance", "BTC"))?.apr_median_30d).toBeNull();
  }, 60_000);

  it("is attached by a round to its carry items, each perp_spot's against the asset borrowed on its spot venue", async () => {
    let items: readonly CarryOpportunity[] = [];
    const onSpotLegs = carryRound({ db, events: new LiveRoundEvents(5, 180_000), persistence, priceBound: undefined, onPublished: (carry) => (items = carryItemsOf(carry.columns)) });
    const perps = [makeSnapshot({ exchange: "bybit", base: "ETH", market: "ETH/USDT:USDT", fundingRate: -0.0002, observedAt: AT })];
    const spots = (["bybit", "okx"] as const).map((exchange) => makeSpot({ exchange, base: "ETH", market: "ETH/USDT", borrow: dailyBorrow("ETH") }));
    await onSpotLegs(spots, perps, new Date(AT));
    const of = (id: string) => items.find((item) => item.id === id)?.persistence;
    // The figures above; OKX lends ETH now but stored no rate in the last 24 hours, so its have none yet.
    expect(of("ETH-perp_spot-bybit-bybit")).toMatchObject({ positive_since: iso(hourAt(719)), apr_median_7d: 0, apr_median_30d: 15, paid_share_7d: 0.5 });
    expect(of("ETH-perp_spot-bybit-okx")).toEqual(UNKNOWN_PERSISTENCE);
    // Spot held against the perpetual: 20 % paid every hour the other way, never positive.
    expect(of("ETH-spot_perp-okx-bybit")).toMatchObject({ positive_since: null, apr_median_7d: -20, apr_median_30d: -20 });
  }, 60_000);

  it("orders sort=stability by paid share, then deviation, and -stability the other way", async () => {
    expect((await listed("?sort=stability")).map((o) => o.id)).toEqual(["BTC-hyperliquid-okx", "BTC-binance-okx", "BTC-binance-hyperliquid"]);
    expect((await listed("?sort=-stability")).map((o) => o.id)).toEqual(["BTC-binance-hyperliquid", "BTC-binance-okx", "BTC-hyperliquid-okx"]);
  }, 60_000);

  it("is read back from storage by a process starting afresh, and computed once an hour whoever asks", async () => {
    const restarted = store();
    expect((await restarted.current())?.through).toBe(THROUGH);
    // Later in the same hour: nothing to do. Claimed hours are not computed twice.
    await restarted.refresh(new Date(AT + 30 * 60_000));
    expect(await db.pairPersistenceSet.count()).toBe(1);
    await db.pairPersistenceSet.create({ data: { through: new Date(THROUGH + HOUR), claimedAt: new Date(THROUGH + HOUR) } });
    await restarted.refresh(new Date(THROUGH + HOUR + 60_000));
    expect((await restarted.current())?.through).toBe(THROUGH);
    // A claim left by a process that died is taken over after 10 minutes.
    await restarted.refresh(new Date(THROUGH + HOUR + 11 * 60_000));
    expect((await restarted.current())?.through).toBe(THROUGH + HOUR);
    expect((await db.pairPersistenceSet.findMany({ orderBy: { through: "asc" } })).map((s) => [s.through.getTime(), s.pairs !== null])).toEqual([
      [THROUGH, true],
      [THROUGH + HOUR, true],
    ]);
  }, 60_000);

  it("leaves a round publishing, with every figure unknown, when the stored set cannot be read", async () => {
    const garbled = new Date(THROUGH + 5 * HOUR);
    await db.pairPersistenceSet.create({ data: { through: garbled, claimedAt: garbled, computedAt: garbled, pairs: new Uint8Array([1, 2, 3]) } });
    try {
      persistence = store();
      expect(await persistence.current()).toBeNull();
      expect((await round(AT + 2 * 60_000)).status).toBe("published");
      for (const o of await listed("")) expect(o.persistence, o.id).toEqual(UNKNOWN_PERSISTENCE);
    } finally {
      await db.pairPersistenceSet.delete({ where: { through: garbled } });
    }
  }, 60_000);

  it("shows Free accounts' delayed set the persistence computed before its round, not later", async () => {
    const live = await new LiveOpportunities(async () => db).current();
    // 15 minutes and 30 s after the second round: that round is the newest old enough.
    const view = await delayedOpportunities(db, live, new Date(AT + 60_000 + 15.5 * 60_000));
    if (view.status !== "ready") throw new Error("expected a delayed set");
    expect(view.snapshot.asOf).toBe(iso(AT + 60_000));
    for (const o of view.snapshot.items) expect(o.persistence.as_of, o.id).toBe(iso(THROUGH));
    expect(view.snapshot.items.find((o) => o.id === "BTC-binance-hyperliquid")?.persistence.paid_share_7d).toBe(0.75);
  }, 60_000);
});
