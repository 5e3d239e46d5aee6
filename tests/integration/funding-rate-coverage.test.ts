import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApiApp } from "@/lib/api/app";
import { createAppServices, type AppServices } from "@/lib/app-services";
import { createKeyFor, createUser, liveOpportunity, seedLiveOpportunities } from "@/tests/support/api-fixtures";
import { expectEnvelope } from "./helpers/api-envelope";
import { testDatabaseForFile } from "@/tests/support/test-database-for-file";
import { MAX_GAPS } from "@/lib/history/coverage/settlement-coverage";

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const database = testDatabaseForFile();
let services: AppServices;
let app: ReturnType<typeof createApiApp>;
let liveKey: string;
let testKey: string;
let narrowKey: string;
let freeKey: string;
const now = Date.now();
const end = Math.floor(now / (8 * HOUR)) * 8 * HOUR;
const iso = (ms: number) => new Date(ms).toISOString();

beforeAll(async () => {
  const db = database.db;
  services = createAppServices(async () => db);
  app = createApiApp(() => services);
  await seedLiveOpportunities(db, [liveOpportunity("BTC", 12.5)], new Date(now - 60_000));
  const pro = await createUser(db, "pro");
  liveKey = (await createKeyFor(db, pro.id)).secret;
  testKey = (await createKeyFor(db, pro.id, { mode: "test" })).secret;
  narrowKey = (await createKeyFor(db, pro.id, { permissions: ["portfolio:read"] })).secret;
  freeKey = (await createKeyFor(db, (await createUser(db, "free")).id)).secret;

  // BTC on binance: 8-hourly, 60 days backfilled (two years back, in months no partition was made
  // for) then 10 days observed, with one day missing (3 settlements) 20 days ago; a USDC twin hourly
  // for a day without a stated interval, one hour missing. ETH on binance and BTC on okx must not show.
  const rows = [];
  const start = end - 70 * DAY;
  for (let t = start; t <= end; t += 8 * HOUR) {
    if (t > end - 20 * DAY - DAY && t < end - 20 * DAY) continue;
    const source = t < end - 10 * DAY ? "backfill" : "observed";
    rows.push({ exchange: "binance", market: "BTC/USDT:USDT", base: "BTC", time: new Date(t), rate: 0.0001, intervalHours: 8, source });
  }
  for (let t = end - DAY; t <= end; t += HOUR) {
    if (t === end - 12 * HOUR) continue;
    rows.push({ exchange: "binance", market: "BTC/USDC:USDC", base: "BTC", time: new Date(t), rate: 0.0001, intervalHours: null, source: "observed" });
  }
  const ancient = end - 2 * 365 * DAY;
  rows.push({ exchange: "binance", market: "BTC/USDT:USDT", base: "BTC", time: new Date(ancient), rate: 0.0001, intervalHours: 8, source: "backfill" });
  rows.push({ exchange: "binance", market: "ETH/USDT:USDT", base: "ETH", time: new Date(end), rate: 0.0001, intervalHours: 8, source: "observed" });
  rows.push({ exchange: "okx", market: "BTC/USDT:USDT", base: "BTC", time: new Date(end), rate: 0.0001, intervalHours: 8, source: "observed" });
  await db.fundingRate.createMany({ data: rows });
});
afterAll(async () => {
  await services?.stopRecorders();
});

async function get(path: string, key: string | null = liveKey) {
  const response = await app.fetch(new Request(`http://localhost${path}`, { headers: key ? { Authorization: `Bearer ${key}` } : {} }));
  return { status: response.status, envelope: expectEnvelope(response.status, response.headers, await response.text(), path) };
}

describe("GET /v1/funding-rates/coverage", () => {
  it("gives each market of the asset on the exchange its span, sources and gaps", async () => {
    const { status, envelope } = await get("/v1/funding-rates/coverage?exchange=binance&symbol=btc");
    expect(status).toBe(200);
    if (envelope.kind !== "success") throw new Error("expected success");
    const body = envelope.data as { exchange: string; symbol: string; venue_history: unknown; series: Record<string, any>[] }; // eslint-disable-line @typescript-eslint/no-explicit-any
    expect(body).toMatchObject({ exchange: "binance", symbol: "BTC" });
    expect(envelope.meta).toMatchObject({ mode: "live", sample: false });
    expect(body.series.map((s) => s.market)).toEqual(["BTC/USDC:USDC", "BTC/USDT:USDT"]);
    const [usdc, usdt] = body.series as [Record<string, any>, Record<string, any>]; // eslint-disable-line @typescript-eslint/no-explicit-any

    expect(usdc).toMatchObject({
      exchange: "binance",
      symbol: "BTC",
      first_settlement: iso(end - DAY),
      last_settlement: iso(end),
      settlements: 24,
      typical_interval_hours: 1,
      gaps: [{ from: iso(end - 13 * HOUR), to: iso(end - 11 * HOUR) }],
      gaps_total: 1,
    });

    const start = end - 70 * DAY;
    const backfilled = 60 * 3 + 1 - 2; // 60 days of 8h settlements from `start`, less the 2 of the missing day that fall before the observed part.
    expect(usdt.first_settlement).toBe(iso(end - 2 * 365 * DAY));
    expect(usdt.last_settlement).toBe(iso(end));
    expect(usdt.typical_interval_hours).toBe(8);
    expect(usdt.sources).toEqual([
      { source: "backfill", first_settlement: iso(end - 2 * 365 * DAY), last_settlement: expect.any(String), settlements: expect.any(Number) },
      { source: "observed", first_settlement: iso(end - 10 * DAY), last_settlement: iso(end), settlements: 10 * 3 + 1 },
    ]);
    expect(Date.parse(usdt.sources[0].last_settlement)).toBeLessThan(end - 10 * DAY);
    expect(usdt.sources[0].settlements + usdt.sources[1].settlements).toBe(usdt.settlements);
    expect(usdt.settlements).toBeGreaterThanOrEqual(backfilled);
    // The two years between the lone ancient settlement and the rest, and the missing day.
    expect(usdt.gaps).toEqual([
      { from: iso(end - 2 * 365 * DAY), to: iso(start) },
      { from: expect.any(String), to: expect.any(String) },
    ]);
    const missing = usdt.gaps[1];
    expect(Date.parse(missing.to) - Date.parse(missing.from)).toBeGreaterThan(8 * HOUR * 1.5);
    expect(Date.parse(missing.from)).toBeLessThan(end - 20 * DAY);
    expect(Date.parse(missing.to)).toBeGreaterThanOrEqual(end - 20 * DAY);
    expect(usdt.gaps_total).toBe(2);
    // Binance's own history endpoint, as its reader states it.
    expect(body.venue_history).toEqual({
      page_size: 1000,
      max_depth_days: null,
      pagination: "forward-by-time",
      requests_per_second: 500 / 300,
      source: expect.stringContaining("binance.com"),
    });
  });

  it("answers an asset without settlements with no series", async () => {
    const { status, envelope } = await get("/v1/funding-rates/coverage?exchange=bybit&symbol=BTC");
    expect(status).toBe(200);
    if (envelope.kind !== "success") throw new Error("expected success");
    expect((envelope.data as { series: unknown[] }).series).toEqual([]);
  });

  it("states the venue's own history limits for an asset it holds no settlements of", async () => {
    // Every venue has a reader now; a venue without one answers null (venueHistoryLimits' unit test).
    const { status, envelope } = await get("/v1/funding-rates/coverage?exchange=lighter&symbol=BTC");
    expect(status).toBe(200);
    if (envelope.kind !== "success") throw new Error("expected success");
    expect((envelope.data as { venue_history: unknown }).venue_history).toEqual({
      page_size: 750,
      max_depth_days: null,
      pagination: "backward-by-time",
      requests_per_second: 1,
      source: expect.stringContaining("lighter.xyz"),
    });
  });

  it("gives test keys the sandbox's settlements, never the stored ones", async () => {
    const { status, envelope } = await get("/v1/funding-rates/coverage?exchange=binance&symbol=BTC", testKey);
    expect(status).toBe(200);
    if (envelope.kind !== "success") throw new Error("expected success");
    const series = (envelope.data as { series: { sources: { source: string }[]; settlements: number }[] }).series;
    expect(envelope.meta).toMatchObject({ mode: "test" });
    expect(series.length).toBeGreaterThan(0);
    for (const s of series) expect(s.sources.map((x) => x.source)).toEqual(["sandbox"]);
    expect(series.some((s) => s.settlements === 24 || s.settlements === 181)).toBe(false);
  });

  it("refuses a bad exchange, a bad symbol, a missing one and an unknown parameter with 400 naming the field", async () => {
    for (const [query, field] of [
      ["exchange=nope&symbol=BTC", "exchange"],
      ["exchange=binance&symbol=B-T-C", "symbol"],
      ["exchange=binance", "symbol"],
      ["exchange=binance&symbol=BTC&limit=5", "limit"],
    ] as const) {
      const { status, envelope } = await get(`/v1/funding-rates/coverage?${query}`);
      expect(status, query).toBe(400);
      if (envelope.kind !== "error") throw new Error("expected an error");
      expect(envelope.error.code).toBe("VALIDATION_ERROR");
      expect(envelope.error.details?.[0]?.field, query).toBe(field);
    }
  });

  it("refuses a request without a key with 401 and keys without opportunities:read with 403", async () => {
    expect((await get("/v1/funding-rates/coverage?exchange=binance&symbol=BTC", null)).status).toBe(401);
    expect((await get("/v1/funding-rates/coverage?exchange=binance&symbol=BTC", narrowKey)).status).toBe(403);
    expect((await get("/v1/funding-rates/coverage?exchange=binance&symbol=BTC", freeKey)).status).toBe(403);
  });

  it(`lists at most ${MAX_GAPS} gaps of a series and counts them all`, async () => {
    const rows = Array.from({ length: MAX_GAPS + 6 }, (_, i) => ({
      exchange: "gate", market: "SOL/USDT:USDT", base: "SOL", time: new Date(end - i * 2 * HOUR), rate: 0.0001, intervalHours: 1, source: "backfill",
    }));
    await database.db.fundingRate.createMany({ data: rows });
    const { envelope } = await get("/v1/funding-rates/coverage?exchange=gate&symbol=SOL");
    if (envelope.kind !== "success") throw new Error("expected success");
    const [sol] = (envelope.data as { series: { gaps: unknown[]; gaps_total: number }[] }).series;
    expect(sol!.gaps).toHaveLength(MAX_GAPS);
    expect(sol!.gaps_total).toBe(MAX_GAPS + 5);
  });
});
