import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApiApp } from "@/lib/api/app";
import { createAppServices, type AppServices } from "@/lib/app-services";
import type { Db } from "@/lib/db";
import { appendEventStatements } from "@/lib/events/append-events";
import type { NewEvent } from "@/lib/events/event-data";
import { deleteExpiredEvents } from "@/lib/events/event-retention";
import { DEFAULT_EVENT_RETENTION_DAYS, eventId, type PublicEvent } from "@/lib/events/event-types";
import { readEventsConfig } from "@/lib/config/events-config";
import { LiveRoundEvents } from "@/lib/events/live-round-events";
import { runIngestionRound } from "@/lib/market/ingest/run-ingestion-round";
import type { MarketSnapshot, VenueId } from "@/lib/market/model/types";
import { makeSnapshot, usdtPerp } from "@/tests/support/market/make-snapshot";
import { testDatabaseForFile } from "@/tests/support/test-database-for-file";
import { expectEnvelope } from "./helpers/api-envelope";
import { createKeyFor, createUser } from "@/tests/support/api-fixtures";
import { snapshotFetcher } from "./helpers/venue-fetchers";

const database = testDatabaseForFile();
let db: Db;
let services: AppServices;
let app: ReturnType<typeof createApiApp>;
let liveKey: string;
let testKey: string;

beforeAll(async () => {
  db = database.db;
  services = createAppServices(async () => db);
  app = createApiApp(() => services);
  const user = await createUser(db, "pro");
  liveKey = (await createKeyFor(db, user.id)).secret;
  testKey = (await createKeyFor(db, user.id, { mode: "test" })).secret;
});
afterAll(async () => {
  await services?.stopRecorders();
});

async function get(path: string, key = liveKey) {
  const response = await app.fetch(new Request(`http://localhost${path}`, { headers: { Authorization: `Bearer ${key}` } }));
  return expectEnvelope(response.status, response.headers, await response.text(), `GET ${path}`);
}

async function events(query = "", key = liveKey): Promise<{ items: PublicEvent[]; has_more: boolean }> {
  const answer = await get(`/v1/events${query}`, key);
  if (answer.kind !== "success") throw new Error(`GET /v1/events${query}: ${JSON.stringify(answer.error)}`);
  return answer.data as { items: PublicEvent[]; has_more: boolean };
}

const VENUES: VenueId[] = ["binance", "bybit", "okx"];
const market = (exchange: VenueId, base: string, fundingRate: number, overrides: Partial<MarketSnapshot> = {}) =>
  makeSnapshot({ exchange, ...usdtPerp(base), base, fundingRate, ...overrides });

describe("the live event log, written by ingestion rounds", () => {
  const roundEvents = new LiveRoundEvents(5, 180_000);
  const round = (markets: (venue: VenueId) => MarketSnapshot[]) =>
    runIngestionRound({ db, fetcher: snapshotFetcher(markets), venues: VENUES, timeoutMs: 5_000, retention: { rawDays: 7, hourlyDays: 730 }, events: roundEvents });

  let written: PublicEvent[] = [];
  beforeAll(async () => {
    // Round 1 is the baseline: nothing to compare its set with.
    await round((v) => (v === "okx" ? [market(v, "BTC", 0.0001), market(v, "ETH", 0.0001)] : [market(v, "BTC", 0.0001), market(v, "ETH", 0.0002)]));
    expect((await events()).items.filter((e) => e.type.startsWith("opportunity."))).toEqual([]);
    // Round 2: bybit's ETH rate jumps (ETH pairs with bybit move by ~22 APR points), SOL appears on two venues,
    // okx fails (its pairs close and it goes stale), binance's BTC moves from 8h to 4h.
    const outcome = await round((v) => {
      if (v === "okx") return [];
      const btc = v === "binance" ? market(v, "BTC", 0.0001, { fundingIntervalHours: 4, nextFundingAt: Date.UTC(2026, 8, 27, 16) }) : market(v, "BTC", 0.0001);
      return [btc, market(v, "ETH", v === "bybit" ? 0.0004 : 0.0002), market(v, "SOL", v === "bybit" ? 0.0003 : 0.0001)];
    });
    expect(outcome.status).toBe("published");
    written = (await events("?limit=1000")).items;
  });

  it("records the round's changes in one append: venue health, interval changes, then opportunities", () => {
    const types = written.map((e) => e.type);
    expect(types).toContain("venue.stale");
    expect(types).toContain("funding_interval.changed");
    expect(types).toContain("opportunity.opened");
    expect(types).toContain("opportunity.updated");
    expect(types).toContain("opportunity.closed");
    const stale = written.find((e) => e.type === "venue.stale")!;
    expect(stale.data).toMatchObject({ exchange: "okx", status: "stale", error: "no markets in this test" });
    expect(written.find((e) => e.type === "funding_interval.changed")!.data).toMatchObject({
      change: { exchange: "binance", market: "BTC/USDT:USDT", symbol: "BTC", from_hours: 8, to_hours: 4 },
    });
    const opened = written.filter((e) => e.type === "opportunity.opened").map((e) => (e.data as { opportunity: { symbol: string } }).opportunity.symbol);
    // SOL is new; BTC's pairs with binance flip direction at its shorter interval (a new id), ETH's stay.
    expect(opened).toContain("SOL");
    expect(opened).not.toContain("ETH");
    const closed = written
      .filter((e) => e.type === "opportunity.closed")
      .map((e) => e.data as { symbol: string; long: { exchange: string }; short: { exchange: string } });
    // okx's ETH paid against both other venues (its rate differs from theirs): both pairs close with it.
    expect(closed.filter((c) => c.symbol === "ETH" && (c.long.exchange === "okx" || c.short.exchange === "okx"))).toHaveLength(2);
    for (const c of closed) if (c.symbol !== "BTC") expect([c.long.exchange, c.short.exchange]).toContain("okx");
    const updated = written.filter((e) => e.type === "opportunity.updated");
    for (const u of updated) {
      const data = u.data as { opportunity: { symbol: string; net_apr: number }; previous_net_apr: number };
      expect(data.opportunity.symbol).toBe("ETH");
      expect(Math.abs(data.opportunity.net_apr - data.previous_net_apr)).toBeGreaterThanOrEqual(5);
    }
    // Ids increase in the order written, all live.
    expect(written.map((e) => e.id)).toEqual([...written.map((e) => e.id)].sort());
    expect(new Set(written.map((e) => e.mode))).toEqual(new Set(["live"]));
  });

  it("writes venue.recovered when the venue answers again", async () => {
    const last = written.at(-1)!.id;
    await round((v) => [market(v, "BTC", 0.0001), market(v, "ETH", v === "bybit" ? 0.0004 : 0.0002)]);
    const next = (await events(`?after=${last}&types=venue.recovered,venue.stale`)).items;
    expect(next.map((e) => [e.type, (e.data as { exchange: string }).exchange])).toEqual([["venue.recovered", "okx"]]);
  });
});

describe("venue health events when the read of the health before a round is slow", () => {
  /**
   * Round events whose read of the venues' health before a round waits until the round has stored
   * its own (okx ok again), or 1 s: a loaded database answering that read late. The round must not
   * store its health before the read has answered, or the read sees it and says nothing.
   */
  class SlowHealthRead extends LiveRoundEvents {
    override async venueStates(of: Db) {
      for (let waited = 0; waited < 1_000; waited += 20) {
        const okx = await of.venueHealth.findUnique({ where: { id: "okx" } });
        if (okx?.status === "ok") break;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      return super.venueStates(of);
    }
  }
  const round = (markets: (venue: VenueId) => MarketSnapshot[], events: LiveRoundEvents) =>
    runIngestionRound({ db, fetcher: snapshotFetcher(markets), venues: VENUES, timeoutMs: 5_000, retention: { rawDays: 7, hourlyDays: 730 }, events });

  it("still writes venue.recovered: the round stores its health only after reading the health before it", async () => {
    await round((v) => (v === "okx" ? [] : [market(v, "BTC", 0.0001)]), new LiveRoundEvents(5, 180_000));
    const last = (await events("?limit=1000")).items.at(-1)!.id;
    await round((v) => [market(v, "BTC", 0.0001)], new SlowHealthRead(5, 180_000));
    const next = (await events(`?after=${last}&types=venue.recovered,venue.stale`)).items;
    expect(next.map((e) => [e.type, (e.data as { exchange: string }).exchange])).toEqual([["venue.recovered", "okx"]]);
  });
});

describe("GET /v1/events", () => {
  const event = (i: number): NewEvent => ({
    type: "venue.stale",
    data: { exchange: `venue${i}`, status: "stale", last_success_at: null, error: `failure ${i}` },
  });
  let testIds: string[] = [];

  beforeAll(async () => {
    await db.$transaction(appendEventStatements(db, "test", Array.from({ length: 25 }, (_, i) => event(i))));
    testIds = (await db.marketEvent.findMany({ where: { mode: "TEST" }, orderBy: { sequence: "asc" } })).map((r) => eventId(r.sequence));
  });

  it("pages oldest first after a cursor, Stripe-like, without gap or repeat", async () => {
    const seen: string[] = [];
    let after = "";
    for (;;) {
      const page = await events(`?limit=10${after ? `&after=${after}` : ""}`, testKey);
      seen.push(...page.items.map((e) => e.id));
      if (!page.has_more) break;
      expect(page.items).toHaveLength(10);
      after = page.items.at(-1)!.id;
    }
    expect(seen).toEqual(testIds);
  });

  it("scopes events to the key's mode", async () => {
    const live = await events("?limit=1000");
    expect(live.items.every((e) => e.mode === "live")).toBe(true);
    expect(live.items.map((e) => e.id)).not.toContain(testIds[0]);
    const test = await events("?limit=1000", testKey);
    expect(test.items.map((e) => e.id)).toEqual(testIds);
  });

  it("filters by type and answers each event in the public shape", async () => {
    const page = await events("?types=venue.stale&limit=3", testKey);
    expect(page.items).toHaveLength(3);
    expect(page.items[0]).toEqual({
      id: testIds[0],
      type: "venue.stale",
      mode: "test",
      created_at: expect.stringMatching(/Z$/),
      data: { exchange: "venue0", status: "stale", last_success_at: null, error: "failure 0" },
    });
    expect((await events("?types=opportunity.opened", testKey)).items).toEqual([]);
  });

  it.each([
    ["?limit=0", "limit"],
    ["?limit=1001", "limit"],
    ["?after=evt_1", "after"],
    ["?after=12", "after"],
    ["?types=opportunity.moved", "types"],
    ["?offset=5", "offset"],
  ])("refuses %s with a 400 naming the field", async (query, field) => {
    const answer = await get(`/v1/events${query}`);
    expect(answer.kind).toBe("error");
    if (answer.kind === "error") {
      expect(answer.error.code).toBe("VALIDATION_ERROR");
      expect(answer.error.details?.[0]?.field).toBe(field);
    }
  });

  it("refuses a cursor beyond the newest event with a 400 naming `after`, rather than answer nothing until the log catches up", async () => {
    const newest = await db.marketEvent.findFirst({ orderBy: { sequence: "desc" }, select: { sequence: true } });
    // The newest id (another mode's or account's included) is a cursor; one past it is not.
    expect((await events(`?after=${eventId(newest!.sequence)}`, testKey)).items).toEqual([]);
    const refused = await get(`/v1/events?after=${eventId(newest!.sequence + 1n)}`, testKey);
    expect(refused.kind === "error" && refused.error).toMatchObject({
      code: "VALIDATION_ERROR",
      details: [{ field: "after", message: expect.stringMatching(/beyond the newest event/) }],
    });
  });

  it("keeps events 30 days unless configured", () => {
    expect(DEFAULT_EVENT_RETENTION_DAYS).toBe(30);
    expect(readEventsConfig({ NODE_ENV: "test" }).EVENTS_RETENTION_DAYS).toBe(30);
    expect(readEventsConfig({ NODE_ENV: "test", EVENTS_RETENTION_DAYS: "90" }).EVENTS_RETENTION_DAYS).toBe(90);
  });

  it("deletes events after 30 days and refuses a cursor older than that, never a silent gap", async () => {
    const old = new Date(Date.now() - 30 * 86_400_000 - 60_000);
    const kept = new Date(Date.now() - 8 * 86_400_000);
    await db.$transaction(appendEventStatements(db, "test", [event(99)]));
    const [eightDaysOld] = await db.marketEvent.findMany({ where: { mode: "TEST" }, orderBy: { sequence: "desc" }, take: 1 });
    await db.marketEvent.update({ where: { sequence: eightDaysOld!.sequence }, data: { createdAt: kept } });
    expect(await deleteExpiredEvents(db)).toBe(0); // 8 days old: kept (the old 7 days would have deleted it)
    await db.$transaction(appendEventStatements(db, "test", [event(100), event(101)]));
    const rows = await db.marketEvent.findMany({ where: { mode: "TEST" }, orderBy: { sequence: "desc" }, take: 2 });
    const [newer, older] = rows;
    // Every test event but the newest is past retention.
    await db.marketEvent.updateMany({ where: { mode: "TEST", sequence: { lte: older!.sequence } }, data: { createdAt: old } });
    const deleted = await deleteExpiredEvents(db);
    expect(deleted).toBeGreaterThanOrEqual(26);
    const rest = await events("?limit=1000", testKey);
    expect(rest.items.map((e) => e.id)).toEqual([eventId(newer!.sequence)]);
    // The last deleted event is a complete cursor: nothing after it is gone.
    expect((await events(`?after=${eventId(older!.sequence)}`, testKey)).items.map((e) => e.id)).toEqual([eventId(newer!.sequence)]);
    const refused = await get(`/v1/events?after=${testIds[0]}`, testKey);
    expect(refused.kind).toBe("error");
    if (refused.kind === "error") {
      expect(refused.error.code).toBe("VALIDATION_ERROR");
      expect(refused.error.details?.[0]).toMatchObject({ field: "after", message: expect.stringMatching(/older than the events still kept/) });
    }
  });
});
