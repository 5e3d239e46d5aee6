import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApiApp } from "@/lib/api/app";
import { createAppServices, type AppServices } from "@/lib/app-services";
import type { Db } from "@/lib/db";
import type { OpenDatabase } from "@/lib/db/open-database";
import { publishSampleIfNeverLive } from "@/lib/market/ingest/publish-sample-market";
import { removeSampleHistory, storeSampleHistory } from "@/lib/market/ingest/store-sample-history";
import { runIngestionRound } from "@/lib/market/ingest/run-ingestion-round";
import { makeSnapshot } from "@/tests/support/market/make-snapshot";
import { binanceAndBybit } from "./helpers/venue-fetchers";
import { seedCursors } from "@/lib/history/backfill/backfill-store";
import { backfillVenue } from "@/lib/history/backfill/backfill-venue";
import type { HistoryPage, VenueHistoryReader } from "@/lib/history/history-types";
import type { Opportunity } from "@/lib/market/model/types";
import { readSampleHistory } from "@/lib/market/sample/sample-history";
import { createKeyFor, createUser } from "@/tests/support/api-fixtures";
import { createTestDatabase } from "@/tests/support/test-database";
import { expectEnvelope } from "./helpers/api-envelope";

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const DAY = 86_400_000;
/** The offline sample's as-of: its oldest recording (KuCoin's, at its replay's assumed clock). */
const AS_OF = "2023-10-31T12:55:42.390Z";
/** Where Binance BTC's recorded history ends once moved onto the sample's timeline: its 08:00 UTC settlement, with the venue's 4 ms. */
const BINANCE_LAST = "2023-10-31T08:00:00.004Z";
/** The markets the bundle holds history for (lib/market/sample/recordings/history/SOURCES.md). */
const WITH_HISTORY = new Set([
  "binance BTC/USDT:USDT",
  "bybit BTC/USDT:USDT",
  "hyperliquid BTC/USDC:USDC",
  "gate BTC/USDT:USDT",
  "dydx BTC/USDC:USDC",
  "kucoinfutures BTC/USDT:USDT",
]);

let database: OpenDatabase;
let db: Db;
let services: AppServices;
let key: string;
let bundled: number;

async function get(path: string): Promise<{ data: Json; meta: Json }> {
  const response = await createApiApp(() => services).fetch(new Request(`http://localhost${path}`, { headers: { Authorization: `Bearer ${key}` } }));
  const envelope = expectEnvelope(response.status, response.headers, await response.text(), path);
  expect(response.status, path).toBe(200);
  if (envelope.kind !== "success") throw new Error("expected success");
  return { data: envelope.data as Json, meta: envelope.meta };
}

beforeAll(async () => {
  database = await createTestDatabase();
  db = database.db;
  services = createAppServices(async () => db);
  key = (await createKeyFor(db, (await createUser(db, "desk")).id)).secret;
  bundled = (await readSampleHistory(Date.parse(AS_OF))).length;
  // History this install recorded itself at one of the sample's settlement times: never overwritten.
  await db.fundingRate.create({
    data: { exchange: "binance", market: "BTC/USDT:USDT", base: "BTC", time: new Date(BINANCE_LAST), rate: 0.0005, intervalHours: 8, source: "observed" },
  });
  // A fresh install's first start, and a second process starting at the same moment.
  const [published] = await Promise.all([publishSampleIfNeverLive(db), readSampleHistory(Date.parse(AS_OF)).then((s) => storeSampleHistory(db, s))]);
  expect(published).toBeGreaterThan(20);
}, 120_000);

afterAll(async () => {
  await services?.stopRecorders();
  await database?.close();
});

describe("the offline sample's recorded funding history", () => {
  it("is stored once as sample settlements, whoever else stores it, and leaves an install's own rows as they were", async () => {
    expect(bundled).toBe(8 * 135 + 3 * 1080);
    expect(await db.fundingRate.count()).toBe(bundled);
    expect(await db.fundingRate.count({ where: { source: "sample" } })).toBe(bundled - 1);
    const own = await db.fundingRate.findUniqueOrThrow({ where: { exchange_market_time: { exchange: "binance", market: "BTC/USDT:USDT", time: new Date(BINANCE_LAST) } } });
    expect(own).toMatchObject({ rate: 0.0005, source: "observed" });
    // A restart finds the sample published and adds nothing; storing the history again adds nothing either.
    expect(await publishSampleIfNeverLive(db)).toBeNull();
    expect(await storeSampleHistory(db, await readSampleHistory(Date.parse(AS_OF)))).toBe(0);
    expect(await db.fundingRate.count()).toBe(bundled);
  });

  it("serves 30 days and more of Binance BTC on /v1/funding-rates, ending at the sample's as-of", async () => {
    const from = new Date(Date.parse(AS_OF) - 31 * DAY).toISOString();
    const { data, meta } = await get(`/v1/funding-rates?exchange=binance&symbol=BTC&from=${from}&to=${AS_OF}&limit=1000`);
    expect(meta).toMatchObject({ sample: true, data_as_of: AS_OF });
    const items = data.items as Json[];
    // 31 days of 8-hourly settlements: 93.
    expect(items).toHaveLength(93);
    expect(Date.parse(items.at(-1)!.time) - Date.parse(items[0]!.time)).toBeGreaterThanOrEqual(30 * DAY);
    expect(items.at(-1)).toMatchObject({ time: BINANCE_LAST, source: "observed" });
    expect(items.at(-2)).toMatchObject({ time: "2023-10-31T00:00:00.005Z", funding_rate: 0.00009422, funding_interval_hours: 8, source: "sample" });
    // Without a range: the 7 days before the sample's as-of, not an empty week before now.
    const recent = await get("/v1/funding-rates?exchange=binance&symbol=BTC");
    expect(recent.meta).toMatchObject({ to: AS_OF, from: new Date(Date.parse(AS_OF) - 7 * DAY).toISOString() });
    expect(recent.data.items).toHaveLength(21);
  });

  it("shows an opportunity's recorded history up to the sample's as-of", async () => {
    const { data } = await get("/v1/opportunities/BTC-binance-hyperliquid");
    expect(data.funding_history).toMatchObject({ to: AS_OF, from: new Date(Date.parse(AS_OF) - 7 * DAY).toISOString() });
    // 7 days: 21 Binance settlements (8-hourly), 168 Hyperliquid ones (hourly).
    expect(data.funding_history.long).toHaveLength(21);
    expect(data.funding_history.short).toHaveLength(168);
    expect(data.funding_history.short[0]).toMatchObject({ exchange: "hyperliquid", source: "sample", funding_interval_hours: 1 });
  });

  it("gives opportunities whose legs both have recorded history their persistence, and the others none", async () => {
    // The venues with history and OKX, which has none: one page of BTC pairs.
    const { data } = await get("/v1/opportunities?symbol=BTC&exchanges=binance,bybit,dydx,gate,hyperliquid,kucoinfutures,okx&limit=100");
    const items = data.items as Opportunity[];
    const recorded = (o: Opportunity) => [o.long, o.short].every((leg) => WITH_HISTORY.has(`${leg.exchange} ${leg.market}`));
    const both = items.filter(recorded);
    // Six markets with history on both legs: every pair of them, fifteen.
    expect(both).toHaveLength(15);
    for (const o of both) {
      expect(o.persistence, o.id).toMatchObject({ as_of: "2023-10-31T12:00:00.000Z" });
      for (const field of ["apr_median_7d", "apr_median_30d", "paid_share_7d", "apr_stddev_7d"] as const) expect(o.persistence[field], `${o.id} ${field}`).not.toBeNull();
    }
    // A run of same-signed spreads needs the last hour before the as-of (11:00-12:00Z) settled on both
    // legs. Binance, Bybit and Gate last settled at 08:00Z and Hyperliquid's 12:00Z settlement is
    // stamped after the hour, so no pair with one of them has a run; dYdX and KuCoin both settled at
    // 12:00Z, but dYdX paid more (94 % a year against 53 %), so their run is against this pair's
    // long dYdX leg and dates nothing (pair-persistence.test.ts dates runs).
    expect(both.map((o) => [o.id, o.persistence.positive_since])).toEqual(both.map((o) => [o.id, null]));
    const dydxKucoin = both.find((o) => o.id === "BTC-dydx-kucoinfutures");
    expect(dydxKucoin?.long.exchange).toBe("dydx");
    const without = items.filter((o) => !recorded(o));
    expect(without.length).toBeGreaterThan(0);
    for (const o of without) expect(o.persistence, o.id).toMatchObject({ apr_median_7d: null, apr_median_30d: null, paid_share_7d: null });
  });

  it("replays 30 days of recorded settlements in a historical simulation, ending at the sample's as-of", async () => {
    const response = await createApiApp(() => services).fetch(
      new Request("http://localhost/v1/simulations", {
        method: "POST",
        headers: { Authorization: `Bearer ${key}`, "Content-Type": "application/json" },
        body: JSON.stringify({
          long: { exchange: "binance", symbol: "BTC" },
          short: { exchange: "hyperliquid", symbol: "BTC" },
          notional_usd: 10_000,
          holding_days: 30,
          mode: "historical",
        }),
      }),
    );
    const envelope = expectEnvelope(response.status, response.headers, await response.text(), "POST /v1/simulations");
    expect(response.status).toBe(201);
    if (envelope.kind !== "success") throw new Error("expected success");
    const result = envelope.data as Json;
    expect(result).toMatchObject({ mode: "historical", to: AS_OF, from: new Date(Date.parse(AS_OF) - 30 * DAY).toISOString() });
    // 8-hourly Binance and hourly Hyperliquid over 30 days.
    expect(result.long).toMatchObject({ exchange: "binance", settlements: 90, funding_interval_hours: 8 });
    expect(result.short).toMatchObject({ exchange: "hyperliquid", settlements: 720, funding_interval_hours: 1 });
    expect(result.daily).toHaveLength(30);
    expect(result.funding_income_usd).not.toBe(0);
    expect(result.paid_share).not.toBeNull();
  });

  // Last: it removes rows the tests above read.
  it("goes venue by venue as real data arrives: a live round that got the venue, or a backfilled page of it", async () => {
    const sampleOf = (exchange: string) => db.fundingRate.count({ where: { exchange, source: "sample" } });
    const binance = await sampleOf("binance");
    const bybit = await sampleOf("bybit");
    const hyperliquid = await sampleOf("hyperliquid");
    expect(bybit).toBeGreaterThan(0);
    expect(hyperliquid).toBeGreaterThan(0);
    // The first live round gets Binance and Bybit; OKX (of which the sample has no history) and Gate are stale.
    const round = await runIngestionRound({
      db,
      fetcher: binanceAndBybit((exchange) => makeSnapshot({ exchange })),
      venues: ["binance", "bybit", "okx", "gate"],
      timeoutMs: 5_000,
      retention: { rawDays: 7, hourlyDays: 3_650 },
    });
    expect(round.status).toBe("published");
    expect(binance + bybit).toBeGreaterThan(0);
    expect(await sampleOf("binance")).toBe(0);
    expect(await sampleOf("bybit")).toBe(0);
    // The install's own row stands; the other venues keep their sample rows until their data arrives.
    expect(await db.fundingRate.count({ where: { exchange: "binance", source: "observed" } })).toBe(1);
    expect(await sampleOf("hyperliquid")).toBe(hyperliquid);
    expect(await sampleOf("gate")).toBeGreaterThan(0);
    // A venue already cleared costs nothing more.
    expect(await removeSampleHistory(db, ["bybit"])).toBe(0);

    // A backfilled page of Hyperliquid: its sample rows go before the page is stored.
    const market = { exchange: "hyperliquid", market: "BTC/USDC:USDC", venueMarketId: "BTC", base: "BTC" };
    const now = Date.parse("2023-10-31T16:00:00.000Z");
    await seedCursors(db, [market], now);
    const page: HistoryPage = { settlements: [{ time: Date.parse("2023-10-31T13:00:00.048Z"), rate: 0.0000125, intervalHours: 1 }], next: null };
    const reader: VenueHistoryReader = {
      exchange: "hyperliquid",
      limits: { pageSize: 500, maxDepthDays: null, pagination: "forward-by-time", requestsPerSecond: 1, source: "test" },
      readPage: async () => page,
    };
    const noIo = { getJson: () => Promise.reject(new Error("no network")), postJson: () => Promise.reject(new Error("no network")) };
    await backfillVenue({ db, reader, io: noIo, since: now - DAY, now: () => now });
    expect(await sampleOf("hyperliquid")).toBe(0);
    expect(await db.fundingRate.count({ where: { exchange: "hyperliquid", source: "backfill" } })).toBe(1);
    expect(await sampleOf("gate")).toBeGreaterThan(0);
  });
});
