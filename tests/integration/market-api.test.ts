import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApiApp } from "@/lib/api/app";
import { createAppServices, type AppServices } from "@/lib/app-services";
import { createKeyFor, createUser, liveOpportunity, seedLiveOpportunities } from "@/tests/support/api-fixtures";
import { expectEnvelope } from "./helpers/api-envelope";
import { testDatabaseForFile } from "@/tests/support/test-database-for-file";
import { VENUE_IDS } from "@/lib/market/model/types";

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const database = testDatabaseForFile();
let services: AppServices;
let app: ReturnType<typeof createApiApp>;
let liveKey: string;
let testKey: string;
let deskKey: string;
const now = Date.now();
const hourNow = Math.floor(now / HOUR) * HOUR;

beforeAll(async () => {
  const db = database.db;
  services = createAppServices(async () => db);
  app = createApiApp(() => services);
  await seedLiveOpportunities(db, [liveOpportunity("BTC", 12.5), liveOpportunity("ETH", 30, "okx", "gate"), liveOpportunity("LIVEONLY", 42)], new Date(now - 60_000));
  const user = await createUser(db, "pro");
  liveKey = (await createKeyFor(db, user.id)).secret;
  testKey = (await createKeyFor(db, user.id, { mode: "test" })).secret;
  deskKey = (await createKeyFor(db, (await createUser(db, "desk")).id)).secret;

  // 8-hourly BTC settlements on binance for 40 days, hourly on bybit for 10 days, one USDC twin row.
  const rows = [];
  for (let t = hourNow - 40 * DAY; t <= hourNow; t += 8 * HOUR) {
    rows.push({ exchange: "binance", market: "BTC/USDT:USDT", base: "BTC", time: new Date(t), rate: 0.0001, intervalHours: 8, source: "observed" });
  }
  for (let t = hourNow - 10 * DAY; t <= hourNow; t += HOUR) {
    rows.push({ exchange: "bybit", market: "BTC/USDT:USDT", base: "BTC", time: new Date(t), rate: 0.00002, intervalHours: 1, source: "observed" });
  }
  await db.fundingRate.createMany({ data: rows });
  // Binance BTC moved to 4h 40 days ago (outside the default 30 days) and to 1h yesterday; OKX ETH from 8h to 2h 3 days ago.
  const change = (exchange: string, market: string, base: string, at: number, fromHours: number, toHours: number, source: string) => ({
    exchange, market, base, effectiveAt: new Date(at), fromHours, toHours, source, detectedAt: new Date(at + 60_000),
  });
  await db.fundingIntervalChange.createMany({
    data: [
      change("binance", "BTC/USDT:USDT", "BTC", hourNow - 40 * DAY, 8, 4, "venue"),
      change("binance", "BTC/USDT:USDT", "BTC", hourNow - DAY, 4, 1, "venue"),
      change("okx", "ETH/USDT:USDT", "ETH", hourNow - 3 * DAY, 8, 2, "schedule"),
    ],
  });
  await db.venueHealth.createMany({
    data: [
      { id: "binance", status: "ok", lastAttemptAt: new Date(now - 30_000), lastSuccessAt: new Date(now - 30_000), marketsCount: 512 },
      { id: "okx", status: "stale", lastAttemptAt: new Date(now - 30_000), lastSuccessAt: new Date(now - DAY), lastError: "okx refresh: no answer within 10000 ms", marketsCount: 250 },
      // Said "ok" an hour ago and nothing since: its worker is gone.
      { id: "bybit", status: "ok", lastAttemptAt: new Date(now - HOUR), lastSuccessAt: new Date(now - HOUR), marketsCount: 400 },
    ],
  });
  // Binance's history backfill: two markets read, one under way.
  const cursor = (market: string, status: string, rows: number, oldest: number | null) => ({
    exchange: "binance", market, base: market.split("/")[0]!, venueMarketId: market.replace(/\/|:USDT/g, ""), status, rows,
    oldestSettlement: oldest === null ? null : new Date(oldest),
  });
  await db.backfillCursor.createMany({
    data: [cursor("BTC/USDT:USDT", "done", 1_095, hourNow - 365 * DAY), cursor("ETH/USDT:USDT", "done", 1_095, hourNow - 300 * DAY), cursor("SOL/USDT:USDT", "pending", 40, null)],
  });
  await db.ingestionRound.create({
    data: {
      startedAt: new Date(now - 5_000),
      status: "running",
      venues: [{ exchange: "binance", status: "ok", markets: 512, error: null, duration_ms: 1200 }],
    },
  });
});
afterAll(async () => {
  await services?.stopRecorders();
});

async function get(path: string, key = liveKey) {
  const response = await app.fetch(new Request(`http://localhost${path}`, { headers: { Authorization: `Bearer ${key}` } }));
  return { status: response.status, envelope: expectEnvelope(response.status, response.headers, await response.text(), path) };
}
async function data(path: string, key = liveKey) {
  const { status, envelope } = await get(path, key);
  expect(status, JSON.stringify(envelope)).toBe(200);
  if (envelope.kind !== "success") throw new Error("expected success");
  return { data: envelope.data as Record<string, any>, meta: envelope.meta }; // eslint-disable-line @typescript-eslint/no-explicit-any
}
async function refused(path: string, status = 400, key = liveKey) {
  const answer = await get(path, key);
  expect(answer.status).toBe(status);
  if (answer.envelope.kind !== "error") throw new Error("expected an error");
  return answer.envelope.error;
}

/** A 400 VALIDATION_ERROR whose first detail names `field`. */
async function expectInvalidField(path: string, field: string) {
  const error = await refused(path);
  expect(error.code).toBe("VALIDATION_ERROR");
  expect(error.details?.[0]?.field).toBe(field);
}

describe("GET /v1/exchanges", () => {
  it("reports each venue's health and the latest round's progress", async () => {
    const { data: body, meta } = await data("/v1/exchanges");
    expect(body.items.map((v: { id: string }) => v.id)).toEqual([...VENUE_IDS]);
    const byId = Object.fromEntries(body.items.map((v: { id: string }) => [v.id, v]));
    expect(byId.binance).toEqual({
      id: "binance",
      name: "Binance",
      status: "ok",
      last_success_at: new Date(now - 30_000).toISOString(),
      data_age_seconds: expect.any(Number),
      stale_after_seconds: 180,
      last_error: null,
      markets_count: 512,
      fees: { maker: 0.0002, taker: 0.0005, source: "https://www.binance.com/en/fee/futureFee", as_of: "2026-10-12T00:00:00.000Z", fee_source: "schedule" },
      backfill: { state: "running", markets_done: 2, markets_delisted: 0, markets_total: 3, rows: 2_230, oldest_settlement: new Date(hourNow - 365 * DAY).toISOString() },
      // No feed was stored: polled by the rounds (60 s), its last message the last successful refresh.
      feed: {
        transport: "poll",
        transport_reason: null,
        poll_interval_seconds: 60,
        last_message_at: new Date(now - 30_000).toISOString(),
        last_message_age_seconds: expect.any(Number),
        latency_p50_ms: null,
        latency_p99_ms: null,
        latency_samples: 0,
        reconnects_24h: 0,
        as_of: null,
      },
    });
    // No backfill has started there.
    expect(byId.okx.backfill).toBeNull();
    // Measured when the answer was made, a moment after `now`.
    expect(byId.binance.data_age_seconds).toBeGreaterThanOrEqual(30);
    expect(byId.binance.data_age_seconds).toBeLessThan(90);
    expect(byId.okx).toMatchObject({ status: "stale", last_success_at: new Date(now - DAY).toISOString(), markets_count: 250 });
    expect(byId.okx.data_age_seconds).toBeGreaterThanOrEqual(DAY / 1000);
    expect(byId.bitget).toMatchObject({ data_age_seconds: null, stale_after_seconds: 180 });
    expect(byId.okx.last_error).toContain("no answer");
    expect(byId.bybit.status).toBe("stale");
    expect(byId.bitget).toMatchObject({ status: "stale", last_success_at: null, markets_count: 0 });
    expect(body.last_round).toMatchObject({ status: "running", venues_done: 1, venues_total: VENUE_IDS.length, finished_at: null });
    expect(meta).toMatchObject({ data_as_of: new Date(now - 60_000).toISOString(), sample: false, mode: "live" });
  });

  it("gives every venue its published fees, and flags the ones without a schedule as ccxt's fallback", async () => {
    const { data: body } = await data("/v1/exchanges");
    const byId = Object.fromEntries(body.items.map((v: { id: string }) => [v.id, v]));
    // Extended's own schedule, not ccxt's 0.2 % placeholder.
    expect(byId.extended.fees).toEqual({
      maker: 0,
      taker: 0.00025,
      source: "https://docs.extended.exchange/extended-resources/trading/trading-fees-and-rebates",
      as_of: "2026-12-01T00:00:00.000Z",
      fee_source: "schedule",
    });
    expect(byId.coinex.fees).toMatchObject({ taker: 0.0005, fee_source: "schedule" });
    expect(byId.phemex.fees).toMatchObject({ taker: 0.0006, fee_source: "schedule" });
    expect(byId.gate.fees).toEqual({ maker: null, taker: null, source: null, as_of: null, fee_source: "ccxt_fallback" });
    for (const venue of body.items) expect(["schedule", "ccxt_fallback"]).toContain(venue.fees.fee_source);
  });

  it("gives test keys the sandbox's venues, gate always stale", async () => {
    const { data: body, meta } = await data("/v1/exchanges", testKey);
    const byId = Object.fromEntries(body.items.map((v: { id: string }) => [v.id, v]));
    expect(byId.gate.status).toBe("stale");
    for (const id of ["binance", "bybit", "okx", "bitget", "hyperliquid"]) expect(byId[id].status).toBe("ok");
    expect(byId.binance.markets_count).toBeGreaterThan(100);
    // The live venue set, each with its fees as live.
    expect(body.items.map((v: { id: string }) => v.id)).toEqual([...VENUE_IDS]);
    expect(byId.extended.fees).toMatchObject({ taker: 0.00025, fee_source: "schedule" });
    // The sandbox's venues are made up: nothing of theirs is backfilled.
    expect(byId.binance.backfill).toBeNull();
    expect(body.last_round).toMatchObject({ status: "published", venues_done: VENUE_IDS.length });
    expect(meta.mode).toBe("test");
  });

  it("refuses query parameters", async () => {
    expect((await refused("/v1/exchanges?status=ok")).details).toEqual([{ field: "status", message: "Unknown query parameter" }]);
  });
});

describe("GET /v1/opportunities/{id}", () => {
  it("serves a HIP-3 dex's id, colon and all, as a filter and inside an opportunity's id in the path", async () => {
    const { data: list } = await data("/v1/opportunities?exchange=hyperliquid:hyna&limit=5", testKey);
    expect(list.items.length).toBeGreaterThan(0);
    const [first] = list.items as { id: string; long: { exchange: string }; short: { exchange: string } }[];
    expect([first!.long.exchange, first!.short.exchange]).toContain("hyperliquid:hyna");
    expect(first!.id).toContain("hyperliquid:hyna");
    const { data: one } = await data(`/v1/opportunities/${encodeURIComponent(first!.id)}`, testKey);
    expect(one.id).toBe(first!.id);
    const { data: raw } = await data(`/v1/opportunities/${first!.id}`, testKey);
    expect(raw.id).toBe(first!.id);
  });

  it("answers the opportunity with both legs' settlements of the last 7 days", async () => {
    const { data: body, meta } = await data("/v1/opportunities/BTC-binance-bybit");
    expect(body).toMatchObject({ id: "BTC-binance-bybit", symbol: "BTC", apr: 12.5 });
    const { long, short, from, to } = body.funding_history;
    expect(Date.parse(to) - Date.parse(from)).toBe(7 * DAY);
    expect(long.every((s: { exchange: string; time: string }) => s.exchange === "binance" && Date.parse(s.time) >= Date.parse(from))).toBe(true);
    expect(long.length).toBeGreaterThanOrEqual(20);
    expect(long.length).toBeLessThanOrEqual(22);
    expect(short.length).toBeGreaterThanOrEqual(167);
    expect(short[0]).toMatchObject({ exchange: "bybit", market: "BTC/USDT:USDT", symbol: "BTC", funding_rate: 0.00002, funding_interval_hours: 1, source: "observed" });
    expect(short[0].apr).toBeCloseTo(0.00002 * 8760 * 100, 9);
    expect(Date.parse(short[1].time)).toBeGreaterThan(Date.parse(short[0].time));
    expect(meta).toMatchObject({ sample: false, mode: "live" });
  });

  it("answers 404 for an unknown id, and test keys never see live ids", async () => {
    expect((await refused("/v1/opportunities/NOPE-binance-okx", 404)).code).toBe("NOT_FOUND");
    expect((await refused("/v1/opportunities/LIVEONLY-binance-bybit", 404, testKey)).code).toBe("NOT_FOUND");
    expect((await refused("/v1/opportunities/BTC-binance-bybit?x=1", 400)).details?.[0]?.field).toBe("x");
  });

  it("gives test keys sandbox opportunities with a generated 7-day history", async () => {
    const { data: body } = await data("/v1/opportunities/SBXNEG-bybit-hyperliquid", testKey);
    expect(body.long.exchange).toBe("bybit");
    const { long, short } = body.funding_history;
    // Hyperliquid settles hourly: one settlement per hour of the week.
    expect(short.length).toBeGreaterThanOrEqual(167);
    expect(short.every((s: { funding_interval_hours: number; source: string }) => s.funding_interval_hours === 1 && s.source === "sandbox")).toBe(true);
    expect(long.length).toBeGreaterThan(0);
    expect(long.every((s: { funding_rate: number }) => s.funding_rate < 0)).toBe(true);
    const again = await data("/v1/opportunities/SBXNEG-bybit-hyperliquid", testKey);
    expect(again.data.funding_history.long).toEqual(long);
  });
});

describe("GET /v1/funding-intervals", () => {
  it("lists the interval changes of the last 30 days, oldest first, narrowed by exchange and symbol", async () => {
    const { data: body, meta } = await data("/v1/funding-intervals");
    expect(body).toMatchObject({ total: 2, limit: 100, offset: 0, has_more: false });
    expect(body.items).toEqual([
      {
        exchange: "okx",
        market: "ETH/USDT:USDT",
        symbol: "ETH",
        effective_at: new Date(hourNow - 3 * DAY).toISOString(),
        from_hours: 8,
        to_hours: 2,
        source: "schedule",
        detected_at: new Date(hourNow - 3 * DAY + 60_000).toISOString(),
      },
      expect.objectContaining({ exchange: "binance", symbol: "BTC", from_hours: 4, to_hours: 1, source: "venue" }),
    ]);
    expect(meta).toMatchObject({ mode: "live", to: expect.any(String), from: expect.any(String) });
    expect((await data("/v1/funding-intervals?exchange=okx")).data.items.map((c: { symbol: string }) => c.symbol)).toEqual(["ETH"]);
    expect((await data("/v1/funding-intervals?symbol=eth&exchange=binance")).data.total).toBe(0);
    const quarter = await data(`/v1/funding-intervals?symbol=BTC&from=${new Date(hourNow - 80 * DAY).toISOString()}&to=${new Date(hourNow).toISOString()}`);
    expect(quarter.data.items.map((c: { to_hours: number }) => c.to_hours)).toEqual([4, 1]);
    const page = await data("/v1/funding-intervals?limit=1&offset=1");
    expect(page.data).toMatchObject({ total: 2, has_more: false, items: [expect.objectContaining({ exchange: "binance" })] });
  });

  it.each([
    ["exchange=ftx", "exchange"],
    ["symbol=BT-C", "symbol"],
    ["from=2025-01-01&to=2026-06-01", "to"],
    ["from=2999-01-01", "from"],
    ["limit=0", "limit"],
    ["interval=8", "interval"],
  ])("refuses %s with a 400 naming %s", (query, field) => expectInvalidField(`/v1/funding-intervals?${query}`, field));

  it("reads back as far as the plan's history reaches: Pro 90 days (further: 403 naming the depth), Desk 365", async () => {
    const from = (days: number) => new Date(Date.now() - days * DAY).toISOString();
    const error = await refused(`/v1/funding-intervals?symbol=BTC&from=${from(100)}&to=${from(0)}`, 403);
    expect(error.code).toBe("FORBIDDEN");
    expect(error.message).toMatch(/^The Pro plan reads 90 days of history: `from` may be \S+ at the earliest; Desk reads 365 days/);
    const year = await data(`/v1/funding-intervals?symbol=BTC&from=${from(300)}&to=${from(0)}`, deskKey);
    expect(year.data.items.map((c: { to_hours: number }) => c.to_hours)).toEqual([4, 1]);
    expect((await refused(`/v1/funding-intervals?from=${from(366)}&to=${from(1)}`, 403, deskKey)).message).toMatch(/^The Desk plan reads 365 days of history/);
  });

  it("gives test keys the sandbox's changes, never live ones", async () => {
    const { data: body, meta } = await data("/v1/funding-intervals?limit=1000", testKey);
    expect(meta.mode).toBe("test");
    // A midnight of the last 7 days, every one but the first minute after midnight (when the eighth is just out and the newest not yet seen).
    expect(body.total).toBeGreaterThanOrEqual(6);
    expect(body.total).toBeLessThanOrEqual(7);
    expect(body.items.every((c: { exchange: string; symbol: string }) => c.exchange === "binance" && c.symbol === "SBXSHIFT")).toBe(true);
  });
});

describe("GET /v1/funding-rates", () => {
  it("pages one asset's settlements on one venue, oldest first, over the last 7 days by default", async () => {
    const { data: body, meta } = await data("/v1/funding-rates?exchange=binance&symbol=btc");
    expect(body.total).toBeGreaterThanOrEqual(21);
    expect(body.total).toBeLessThanOrEqual(22);
    expect(body).toMatchObject({ limit: 100, offset: 0, has_more: false });
    expect(body.items[0]).toMatchObject({ exchange: "binance", symbol: "BTC", funding_rate: 0.0001, funding_interval_hours: 8 });
    expect(meta).toMatchObject({ sample: false, mode: "live" });
    const page = await data("/v1/funding-rates?exchange=binance&symbol=BTC&limit=5&offset=5");
    expect(page.data).toMatchObject({ limit: 5, offset: 5, has_more: true, total: body.total });
    expect(page.data.items.map((s: { time: string }) => s.time)).toEqual(body.items.slice(5, 10).map((s: { time: string }) => s.time));
  });

  it("reads an explicit range of up to 31 days", async () => {
    const from = new Date(hourNow - 30 * DAY).toISOString();
    const to = new Date(hourNow).toISOString();
    const { data: body } = await data(`/v1/funding-rates?exchange=binance&symbol=BTC&from=${from}&to=${to}&limit=1000`);
    expect(body.total).toBe(91);
    expect(body.items[0].time).toBe(from);
    expect(body.items.at(-1).time).toBe(to);
  });

  it.each([
    ["symbol=BTC", "exchange"],
    ["exchange=binance", "symbol"],
    ["exchange=ftx&symbol=BTC", "exchange"],
    ["exchange=binance&symbol=BTC&from=yesterday", "from"],
    ["exchange=binance&symbol=BTC&from=2026-11-10T00:00:00Z&to=2026-11-01T00:00:00Z", "to"],
    ["exchange=binance&symbol=BTC&from=2026-09-01&to=2026-11-01", "to"],
    ["exchange=binance&symbol=BTC&to=2026-13-01", "to"],
    ["exchange=binance&symbol=BTC&from=0000-01-01", "from"],
    ["exchange=binance&symbol=BTC&from=2026-01-01&to=0000-01-02T00:00:00Z", "to"],
    ["exchange=binance&symbol=BTC&from=2999-01-01", "from"],
    ["exchange=binance&symbol=BTC&limit=1001", "limit"],
    ["exchange=binance&symbol=BTC&offset=-1", "offset"],
    ["exchange=binance&symbol=BTC&market=x", "market"],
  ])("refuses %s with a 400 naming %s", (query, field) => expectInvalidField(`/v1/funding-rates?${query}`, field));

  it("reaches back as far as the key's plan allows (Pro 90 days, Desk 365)", async () => {
    const range = `from=${new Date(hourNow - 120 * DAY).toISOString()}&to=${new Date(hourNow - 100 * DAY).toISOString()}`;
    const answer = await get(`/v1/funding-rates?exchange=binance&symbol=BTC&${range}`);
    expect(answer.status).toBe(403);
    expect(JSON.stringify(answer.envelope)).toMatch(/The Pro plan reads 90 days of history: `from` may be \d{4}-\d\d-\d\dT[\d:.]+Z at the earliest; Desk reads 365 days/);
    expect((await get(`/v1/funding-intervals?exchange=binance&symbol=BTC&${range}`)).status).toBe(403);
    expect((await data(`/v1/funding-rates?exchange=binance&symbol=BTC&${range}`, deskKey)).data.total).toBe(0);
    // The plan's depth is what counts, not the range's length: 89 days back is within Pro's reach.
    const recent = `from=${new Date(hourNow - 89 * DAY).toISOString()}&to=${new Date(hourNow - 70 * DAY).toISOString()}`;
    expect((await data(`/v1/funding-rates?exchange=binance&symbol=BTC&${recent}`)).data.total).toBe(0);
  });

  it("gives test keys the sandbox's settlement history", async () => {
    const { data: body, meta } = await data("/v1/funding-rates?exchange=hyperliquid&symbol=BTC&limit=1000", testKey);
    expect(body.total).toBeGreaterThanOrEqual(167);
    expect(body.items.every((s: { source: string; funding_interval_hours: number }) => s.source === "sandbox" && s.funding_interval_hours === 1)).toBe(true);
    expect(meta.mode).toBe("test");
    const stale = await data("/v1/funding-rates?exchange=gate&symbol=BTC", testKey);
    expect(stale.data.total).toBe(0);
  });
});
