import { afterAll, beforeEach, describe, expect, it } from "vitest";
import type { Db } from "@/lib/db";
import type { OpenDatabase } from "@/lib/db/open-database";
import { computeOpportunities } from "@/lib/market/opportunities/rank-opportunities";
import { applyRetention } from "@/lib/market/ingest/apply-retention";
import { publishSampleIfNeverLive } from "@/lib/market/ingest/publish-sample-market";
import { SAMPLE_RECORDED_AT } from "@/tests/fixtures/venues/sample-venue-responses";
import { runIngestionRound, type IngestionRoundOptions } from "@/lib/market/ingest/run-ingestion-round";
import { fromSnapshotRow, roundProgress, roundVenues, type VenueRoundResult } from "@/lib/market/ingest/store-round";
import { directSql } from "@/lib/db/direct-sql";
import { LiveOpportunities } from "@/lib/market/opportunities/live-opportunities";
import { loadItems, publish } from "@/lib/market/opportunities/store";
import { makeSnapshot } from "@/tests/support/market/make-snapshot";
import { PRICE_OBSERVATION_TOLERANCE_MS } from "@/lib/market/model/price-spread";
import { marketSnapshotSchema, VENUE_IDS, type Opportunity, type VenueId } from "@/lib/market/model/types";
import { createTestDatabase } from "@/tests/support/test-database";
import { listOpportunitiesAsPro } from "./helpers/list-opportunities";
import { binanceAndBybit, replayFetcher, snapshotFetcher } from "./helpers/venue-fetchers";

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
let database: OpenDatabase;
let db: Db;

const opened: OpenDatabase[] = [];
async function freshDb(): Promise<Db> {
  database = await createTestDatabase();
  opened.push(database);
  db = database.db;
  return db;
}
afterAll(async () => {
  for (const d of opened) await d.close();
});

function round(options: Partial<IngestionRoundOptions>) {
  return runIngestionRound({
    db,
    fetcher: replayFetcher(),
    timeoutMs: 5_000,
    retention: { rawDays: 7, hourlyDays: 730 },
    ...options,
  });
}

/** The ids of the live set as the API serves it (loaded fresh from OpportunitySet), sorted. */
function pick<T extends object, K extends keyof T>(value: T, keys: readonly K[]): Pick<T, K> {
  return Object.fromEntries(keys.map((key) => [key, value[key]])) as Pick<T, K>;
}

async function liveIds(): Promise<string[]> {
  const { items } = await new LiveOpportunities(async () => db).current();
  return items.map((o) => o.id).sort();
}

describe("an ingestion round", () => {
  beforeEach(async () => {
    await freshDb();
  });

  it("stores every venue's snapshots, publishes the ranked set with 1d/7d averages and tells the live set", async () => {
    let told = 0;
    const outcome = await round({
      onPublished: () => {
        told += 1;
      },
    });
    expect(outcome.status).toBe("published");
    // Every venue answers its recorded (or documented) responses through its real connector.
    expect(outcome.venues.map((v) => `${v.exchange}:${v.status}`).sort()).toEqual(VENUE_IDS.map((v) => `${v}:ok`).sort());
    const stored = await db.roundSnapshot.count({ where: { roundId: outcome.roundId } });
    expect(stored).toBe(outcome.venues.reduce((n, v) => n + v.markets, 0));
    expect(stored).toBeGreaterThan(20);
    // Stored rows read back as the snapshots they were, ranking to exactly the published set.
    const readBack = (await db.roundSnapshot.findMany({ where: { roundId: outcome.roundId } })).map(fromSnapshotRow);
    for (const snapshot of readBack) expect(marketSnapshotSchema.parse(snapshot)).toEqual(snapshot);
    // Their underlying's class and trading hours too (HIP-3's stocks, Bitfinex's index and fx perps):
    // rows ranked again pair only like with like, as the live set does.
    const classed = readBack.filter((s) => s.underlyingClass !== undefined);
    expect(classed.map((s) => s.underlyingClass)).toEqual(expect.arrayContaining(["equity", "index"]));
    expect(classed.some((s) => s.tradingHours === "always-off-hours-oracle")).toBe(true);
    expect(computeOpportunities(readBack).opportunities.map((o) => o.id).sort()).toEqual(await liveIds());

    const set = await db.opportunitySet.findUniqueOrThrow({ where: { id: "live" } });
    expect(set.sample).toBe(false);
    const items = await loadItems(db);
    expect(items).toHaveLength(outcome.opportunities);
    // Every stored number and time is the one observed: ranking the rows read back gives the very
    // figures published (all but what stored history adds: averages, settlements, persistence).
    const figures = (o: Opportunity) => ({
      ...pick(o, ["id", "apr", "net_apr", "funding_spread_8h", "price_spread_bps", "open_interest_usd", "volume_24h_usd", "updated_at"]),
      legs: [o.long, o.short].map((leg) => pick(leg, ["funding_rate", "predicted_funding_rate", "rate_cap", "rate_floor", "next_funding_at", "mark_price", "observed_at"])),
    });
    expect(computeOpportunities(readBack).opportunities.map(figures)).toEqual(items.map(figures));
    expect(outcome.opportunities).toBeGreaterThan(20);
    for (const item of items) expect(item).toHaveProperty("apr_7d_avg");
    expect(told).toBe(1);

    const health = await db.venueHealth.findMany();
    expect(health).toHaveLength(VENUE_IDS.length);
    for (const venue of health) expect(venue).toMatchObject({ status: "ok", lastError: null });
    const stored_round = await db.ingestionRound.findUniqueOrThrow({ where: { id: outcome.roundId } });
    expect(stored_round).toMatchObject({ status: "published", opportunities: outcome.opportunities });
    // The venues' final word, not a progress write that was still in flight when storing began.
    expect(stored_round.venues).toEqual(outcome.venues);
    expect(stored_round.aggregatedAt).not.toBeNull();
    expect(await db.fundingRateHourly.count()).toBeGreaterThan(0);
  }, 60_000);

  it("writes a round's progress only over a shorter list, so a write landing after the final word changes nothing", async () => {
    const { id } = await db.ingestionRound.create({ data: { startedAt: new Date(), status: "running" } });
    const venue = (exchange: VenueId, duration_ms: number): VenueRoundResult => ({ exchange, status: "ok", markets: 3, error: null, duration_ms });
    const venuesOf = async () => (await db.ingestionRound.findUniqueOrThrow({ where: { id } })).venues;
    const sql = directSql(db);
    await sql.query(roundProgress(id, [venue("binance", 10)]));
    await sql.query(roundProgress(id, [venue("binance", 10), venue("bybit", 20)]));
    expect(await venuesOf()).toEqual([venue("binance", 10), venue("bybit", 20)]);
    const final = [venue("binance", 10), venue("bybit", 20), venue("okx", 30)];
    await sql.query(roundVenues(id, final));
    // Late progress, as long as the final list or shorter: ignored.
    await sql.query(roundProgress(id, [venue("binance", 11), venue("bybit", 21), venue("okx", 31)]));
    await sql.query(roundProgress(id, [venue("binance", 11), venue("bybit", 21)]));
    expect(await venuesOf()).toEqual(final);
    // The final word itself always lands, as a failed round's last known venues do.
    await sql.query(roundVenues(id, [venue("binance", 12)]));
    expect(await venuesOf()).toEqual([venue("binance", 12)]);
  });

  it("marks a venue answering garbage, HTTP 500 or nothing stale, publishes the others and stores nothing of the failed ones", async () => {
    const outcome = await round({
      // Long enough that no healthy venue's replay meets it on a loaded machine: only the hanging one does.
      timeoutMs: 5_000,
      fetcher: replayFetcher({
        bybit: { body: "<html>garbage{" },
        okx: { status: 500, body: { code: "50000", msg: "internal error" } },
        gate: { hang: true },
      }),
    });
    expect(outcome.status).toBe("published");
    const byVenue = Object.fromEntries(outcome.venues.map((v) => [v.exchange, v]));
    for (const venue of ["bybit", "okx", "gate"]) {
      expect(byVenue[venue]).toMatchObject({ status: "stale", markets: 0 });
      expect(byVenue[venue]?.error).toBeTruthy();
    }
    const healthy = VENUE_IDS.filter((venue) => !["bybit", "okx", "gate"].includes(venue));
    for (const venue of healthy) expect(byVenue[venue]?.status).toBe("ok");
    expect(byVenue.gate?.duration_ms).toBeLessThan(8_000);

    const storedVenues = await db.roundSnapshot.groupBy({ by: ["exchange"], where: { roundId: outcome.roundId } });
    expect(storedVenues.map((g) => g.exchange).sort()).toEqual([...healthy].sort());
    for (const id of await liveIds()) expect(id).not.toMatch(/-(bybit|okx|gate)(-|$)/);
    expect(await liveIds()).not.toHaveLength(0);

    const stale = await db.venueHealth.findMany({ where: { status: "stale" }, orderBy: { id: "asc" } });
    expect(stale.map((v) => v.id)).toEqual(["bybit", "gate", "okx"]);
    for (const venue of stale) {
      expect(venue.lastSuccessAt).toBeNull();
      expect(venue.lastError).toBeTruthy();
    }
  }, 60_000);

  it("reloads the venues' due market lists last, once its set is published", async () => {
    let statusWhenReloading: string | undefined;
    const outcome = await round({
      reloadMarketLists: async () => {
        statusWhenReloading = (await db.ingestionRound.findFirstOrThrow({ orderBy: { startedAt: "desc" } })).status;
      },
    });
    expect(outcome.status).toBe("published");
    expect(statusWhenReloading).toBe("published");
    // A reload that fails is logged: the published round stands.
    const failing = await round({ reloadMarketLists: () => Promise.reject(new Error("lists unreachable")) });
    expect(failing.status).toBe("published");
  }, 60_000);

  it("keeps the previous set whole when every venue is stale", async () => {
    await round({});
    const before = await liveIds();
    const failing = await round({ timeoutMs: 500, fetcher: replayFetcher(Object.fromEntries(
      VENUE_IDS.map((v) => [v, { status: 500, body: "{}" }]),
    )) });
    expect(failing.status).toBe("failed");
    expect(await liveIds()).toEqual(before);
    const health = await db.venueHealth.findMany();
    // Stale now, but the last success of the earlier round is kept.
    for (const venue of health) expect(venue).toMatchObject({ status: "stale", lastSuccessAt: expect.any(Date) });
  }, 60_000);

  it("leaves the previous opportunity set intact when a round breaks inside its publishing transaction", async () => {
    await round({});
    const before = await liveIds();
    const versionBefore = (await db.opportunitySet.findUniqueOrThrow({ where: { id: "live" } })).version;
    const live = new LiveOpportunities(async () => db);
    expect((await live.current()).items.map((o) => o.id).sort()).toEqual(before);

    // A statement failing after the new set was written (and the round marked published), in the same transaction.
    const outcome = await round({
      fetcher: snapshotFetcher((venue) =>
        venue === "binance" || venue === "okx" ? [makeSnapshot({ exchange: venue, base: "NEWONLY", fundingRate: venue === "okx" ? 0.0004 : 0 })] : [],
      ),
      publish: (target, items, source, extra) => publish(target, items, source, [...(extra ?? []), { text: "SELECT 1 / 0", values: [] }]),
    });
    expect(outcome.status).toBe("failed");
    expect(await liveIds()).toEqual(before);
    const set = await db.opportunitySet.findUniqueOrThrow({ where: { id: "live" } });
    expect(set.version).toBe(versionBefore);
    expect((await db.ingestionRound.findUniqueOrThrow({ where: { id: outcome.roundId } })).status).toBe("failed");
    live.invalidate();
    expect((await live.current()).items.map((o) => o.id).sort()).toEqual(before);
  }, 60_000);

  it("adds each opportunity's mean APR over the last day and week from the stored history", async () => {
    const now = Date.UTC(2026, 10, 23, 12);
    let at = now - 3 * DAY;
    let okxRate = 0.0003;
    const fetcher = snapshotFetcher((venue) =>
      venue === "binance" || venue === "okx"
        ? [makeSnapshot({ exchange: venue, fundingRate: venue === "okx" ? okxRate : 0.0001, observedAt: at })]
        : [],
    );
    await round({ fetcher, now: () => at });
    at = now;
    okxRate = 0.0005;
    await round({ fetcher, now: () => at });
    const item = (await loadItems(db)).find((o) => o.id === "BTC-binance-okx")!;
    // 8h rates annualise ×1095 ×100: today's spread 0.0004 → 43.8 %; three days ago 0.0002 → 21.9 %.
    expect(item.apr).toBeCloseTo(43.8, 6);
    expect(item.apr_1d_avg).toBeCloseTo(43.8, 6);
    expect(item.apr_7d_avg).toBeCloseTo((43.8 + 21.9) / 2, 6);
  }, 60_000);

  it("records a settlement when a market's next funding time passed since the previous round, at the last rate seen", async () => {
    const t0 = Date.UTC(2026, 10, 20, 7, 58);
    const settleAt = Date.UTC(2026, 10, 20, 8);
    let now = t0;
    let rate = 0.0003;
    const fetcher = binanceAndBybit((venue) =>
      makeSnapshot({
        exchange: venue,
        fundingRate: venue === "bybit" ? rate : 0.0001,
        observedAt: now,
        nextFundingAt: now < settleAt ? settleAt : settleAt + 8 * HOUR,
      }),
    );
    const first = await round({ fetcher, now: () => now });
    expect(first.settlements).toBe(0);
    now = t0 + 60_000; // 07:59: nothing settled yet
    rate = 0.0004;
    expect((await round({ fetcher, now: () => now })).settlements).toBe(0);
    now = t0 + 180_000; // 08:01: the 08:00 settlement happened at the 07:59 rate
    rate = 0.0009;
    expect((await round({ fetcher, now: () => now })).settlements).toBe(2);
    const rows = await db.fundingRate.findMany({ orderBy: { exchange: "asc" } });
    expect(rows.map((r) => ({ exchange: r.exchange, rate: r.rate, time: r.time.getTime(), source: r.source }))).toEqual([
      { exchange: "binance", rate: 0.0001, time: settleAt, source: "observed" },
      { exchange: "bybit", rate: 0.0004, time: settleAt, source: "observed" },
    ]);
    // The round that recorded it publishes it on the legs, beside the new rate.
    const [item] = (await new LiveOpportunities(async () => db).current()).items;
    const bybitLeg = item?.long.exchange === "bybit" ? item.long : item?.short;
    expect(bybitLeg).toMatchObject({ funding_rate: 0.0009, last_settled_rate: 0.0004, last_settled_at: new Date(settleAt).toISOString() });
    now = t0 + 240_000;
    expect((await round({ fetcher, now: () => now })).settlements).toBe(0);
  }, 60_000);

  it("records a change of a market's funding interval, dated when the new interval began, and flags the leg for 7 days", async () => {
    const t0 = Date.UTC(2026, 10, 20, 8, 38);
    let now = t0;
    let bybitHours = 8;
    const fetcher = binanceAndBybit((venue) =>
      makeSnapshot({
        exchange: venue,
        fundingRate: venue === "bybit" ? 0.0004 : 0.0001,
        fundingIntervalHours: venue === "bybit" ? bybitHours : 8,
        observedAt: now,
        nextFundingAt: venue === "bybit" && bybitHours === 1 ? Date.UTC(2026, 10, 20, 9) : Date.UTC(2026, 10, 20, 16),
      }),
    );
    await round({ fetcher, now: () => now });
    now = t0 + 60_000;
    // 08:39: bybit settles hourly now. By its schedule the running hour began at 08:00, but the 08:38
    // round still saw 8h, so the change is dated just after that round.
    bybitHours = 1;
    await round({ fetcher, now: () => now });
    const changes = await db.fundingIntervalChange.findMany();
    expect(changes).toEqual([
      {
        exchange: "bybit",
        market: "BTC/USDT:USDT",
        base: "BTC",
        effectiveAt: new Date(t0 + 1),
        fromHours: 8,
        toHours: 1,
        source: "venue",
        detectedAt: new Date(t0 + 60_000),
      },
    ]);
    const [item] = (await new LiveOpportunities(async () => db).current()).items;
    const bybitLeg = item?.long.exchange === "bybit" ? item.long : item?.short;
    const binanceLeg = item?.long.exchange === "binance" ? item.long : item?.short;
    expect(bybitLeg).toMatchObject({ exchange: "bybit", funding_interval_hours: 1, interval_changed_at: new Date(t0 + 1).toISOString() });
    expect(binanceLeg).toMatchObject({ exchange: "binance", interval_changed_at: null });
    // The same interval again is no change; a week later the leg is no longer flagged.
    now = t0 + 2 * 60_000;
    await round({ fetcher, now: () => now });
    expect(await db.fundingIntervalChange.count()).toBe(1);
    now = t0 + 7 * DAY + 60_000;
    await round({ fetcher, now: () => now });
    const [later] = (await new LiveOpportunities(async () => db).current()).items;
    expect([later?.long.interval_changed_at, later?.short.interval_changed_at]).toEqual([null, null]);
  }, 60_000);
});

describe("retention", () => {
  beforeEach(async () => {
    await freshDb();
  });

  it("aggregates rounds into hourly rows before deleting them, and keeps the aggregates for their own period", async () => {
    const now = Date.UTC(2026, 10, 23, 12);
    const old = now - 8 * DAY;
    const fetcher = snapshotFetcher((venue) => (venue === "binance" || venue === "okx" ? [makeSnapshot({ exchange: venue, observedAt: old })] : []));
    await round({ fetcher, now: () => old });
    // A round killed after storing its snapshots but before aggregating them.
    const killed = await db.ingestionRound.create({ data: { startedAt: new Date(old + HOUR), status: "running" } });
    await db.roundSnapshot.create({
      data: {
        roundId: killed.id, exchange: "gate", market: "BTC/USDT:USDT", venueMarketId: "BTC_USDT", base: "BTC", venueBase: "BTC",
        contractMultiplier: 1, quote: "USDT", settle: "USDT", fundingRate: 0.0002, fundingIntervalHours: 8,
        observedAt: new Date(old + HOUR),
      },
    });
    await db.fundingRateHourly.create({
      data: { exchange: "okx", market: "ETH/USDT:USDT", base: "ETH", hour: new Date(now - 800 * DAY), samples: 1, rateSum: 0, aprSum: 0, rateMin: 0, rateMax: 0 },
    });

    const result = await applyRetention(db, { rawDays: 7, hourlyDays: 730 }, new Date(now));
    expect(result).toMatchObject({ aggregatedRounds: 1, deletedRounds: 2, deletedHours: 1 });
    expect(await db.ingestionRound.count()).toBe(0);
    expect(await db.roundSnapshot.count()).toBe(0);
    expect(await db.roundSnapshot.count()).toBe(0);
    const hours = await db.fundingRateHourly.findMany({ orderBy: [{ exchange: "asc" }] });
    expect(hours.map((h) => [h.exchange, h.hour.getTime(), h.samples])).toEqual([
      ["binance", Math.floor(old / HOUR) * HOUR, 1],
      ["gate", Math.floor((old + HOUR) / HOUR) * HOUR, 1],
      ["okx", Math.floor(old / HOUR) * HOUR, 1],
    ]);
    expect(hours.find((h) => h.exchange === "gate")?.aprSum).toBeCloseTo(0.0002 * 1095 * 100, 9);
  }, 60_000);

  it("keeps raw rounds younger than the configured period", async () => {
    const now = Date.UTC(2026, 10, 23, 12);
    const fetcher = snapshotFetcher((venue) => (venue === "binance" || venue === "okx" ? [makeSnapshot({ exchange: venue, observedAt: now - DAY })] : []));
    const kept = await round({ fetcher, now: () => now - DAY });
    expect((await applyRetention(db, { rawDays: 2, hourlyDays: 730 }, new Date(now))).deletedRounds).toBe(0);
    expect(await db.roundSnapshot.count({ where: { roundId: kept.roundId } })).toBe(2);
    // A younger round's snapshots stay when an older round goes.
    const younger = await round({ fetcher, now: () => now });
    expect((await applyRetention(db, { rawDays: 1, hourlyDays: 730 }, new Date(now + 60_000))).deletedRounds).toBe(1);
    expect(await db.roundSnapshot.count({ where: { roundId: kept.roundId } })).toBe(0);
    expect(await db.roundSnapshot.count({ where: { roundId: younger.roundId } })).toBe(2);
  }, 60_000);
});

describe("the offline sample", () => {
  beforeEach(async () => {
    await freshDb();
  });

  it("is published through the real connectors when nothing ever was, and a live round replaces it", async () => {
    let told = 0;
    const count = await publishSampleIfNeverLive(db, () => told++);
    expect(count).toBeGreaterThan(20);
    expect(told).toBe(1);
    const set = await db.opportunitySet.findUniqueOrThrow({ where: { id: "live" } });
    expect(set.sample).toBe(true);
    expect(set.asOf.getTime()).toBeLessThan(Date.now() - DAY);
    const items = await loadItems(db);
    expect(items).toHaveLength(count!);
    // Every leg is dated at its venue's recording, venues without timestamps included: no sample
    // item claims to be newer than the recordings, and none is older than data_as_of.
    expect(items.some((o) => [o.long.exchange, o.short.exchange].includes("hyperliquid"))).toBe(true);
    for (const o of items) {
      for (const leg of [o.long, o.short]) {
        expect(Date.parse(leg.observed_at ?? ""), `${o.id} ${leg.exchange}`).toBe(SAMPLE_RECORDED_AT[leg.exchange as VenueId]);
      }
      expect(Date.parse(o.updated_at)).toBeGreaterThanOrEqual(set.asOf.getTime());
    }
    // The oldest recording's moment: KuCoin's (assumed; its rows state only a countdown).
    expect(set.asOf.toISOString()).toBe("2023-10-31T12:55:42.390Z");
    expect(await db.roundSnapshot.count()).toBe(0);
    expect(await publishSampleIfNeverLive(db)).toBeNull();

    await round({});
    expect((await db.opportunitySet.findUniqueOrThrow({ where: { id: "live" } })).sample).toBe(false);
    expect(await publishSampleIfNeverLive(db)).toBeNull();
  }, 60_000);
});

describe("GET /v1/opportunities price spreads", () => {
  beforeEach(async () => {
    await freshDb();
  });

  /** GET /v1/opportunities with a fresh Pro key, on a fresh in-memory copy of the published set. */
  const listed = (query: string) => listOpportunitiesAsPro(db, query);

  it("are null, saying why, between legs observed further apart than the tolerance in a live round", async () => {
    const now = Date.now();
    // OKX answers, but with numbers from a refresh two minutes old: its payload time says so.
    const fetcher = snapshotFetcher((venue) => {
      if (venue !== "binance" && venue !== "bybit" && venue !== "okx") return [];
      const observedAt = venue === "okx" ? now - 120_000 : venue === "bybit" ? now - PRICE_OBSERVATION_TOLERANCE_MS : now;
      const fundingRate = { binance: 0.0001, bybit: 0.0002, okx: 0.0003 }[venue];
      return [makeSnapshot({ exchange: venue, fundingRate, markPrice: 100 + fundingRate * 1000, observedAt })];
    });
    expect((await round({ fetcher, now: () => now })).status).toBe("published");

    const { items } = await listed("?symbol=BTC");
    const byId = new Map(items.map((o) => [o.id, o]));
    expect([...byId.keys()].sort()).toEqual(["BTC-binance-bybit", "BTC-binance-okx", "BTC-bybit-okx"]);
    // Binance and Bybit: 30 s apart, the tolerance itself, so the spread is given.
    expect(byId.get("BTC-binance-bybit")).toMatchObject({ price_spread_bps: 9.985, price_spread_unavailable_reason: null });
    for (const id of ["BTC-binance-okx", "BTC-bybit-okx"]) {
      expect(byId.get(id), id).toMatchObject({ price_spread_bps: null, price_spread_unavailable_reason: "legs_observed_apart" });
      expect(byId.get(id)?.short.observed_at, id).toBe(new Date(now - 120_000).toISOString());
    }
  }, 60_000);

  it("are null between the offline sample's venues recorded on different days, as the first-run screener shows them", async () => {
    await publishSampleIfNeverLive(db);
    const { items, meta } = await listed("?symbol=ETH");
    expect(meta).toMatchObject({ sample: true, data_as_of: "2023-10-31T12:55:42.390Z" });
    const byId = new Map(items.map((o) => [o.id, o]));
    // Was −496 bps: OKX's ETH of 2026-09-27 against Binance's of 2025-06-17.
    expect(byId.get("ETH-okx-binance")).toMatchObject({
      price_spread_bps: null,
      price_spread_unavailable_reason: "legs_observed_apart",
      long: { exchange: "okx", observed_at: "2026-09-27T13:50:00.000Z" },
      short: { exchange: "binance", observed_at: "2025-06-17T08:38:08.000Z" },
    });
    expect(byId.get("ETH-okx-bybit")).toMatchObject({ price_spread_bps: 5.1344, price_spread_unavailable_reason: null });
    const doge = (await listed("?symbol=DOGE")).items;
    expect(doge.map((o) => [o.id, o.price_spread_bps, o.price_spread_unavailable_reason])).toEqual([
      ["DOGE-binance-gate", null, "legs_observed_apart"],
    ]);
  }, 60_000);
});
