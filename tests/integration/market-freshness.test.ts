// Freshness judged when an answer is served (docs/decisions/stale-legs-judged-when-served.md): a venue whose
// last success is older than three ingestion intervals answers `stale` with its age on
// GET /v1/exchanges, and its legs are flagged on GET /v1/opportunities and /v1/opportunities/{id},
// also when the answer was built and cached while they were fresh and no new set was published
// since. Only Date is faked, so the clock moves when the test says while timers and the database
// run as usual; the published set stays the very object the cache keys its answers on.
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createApiApp } from "@/lib/api/app";
import { createAppServices, type AppServices } from "@/lib/app-services";
import type { OpenDatabase } from "@/lib/db/open-database";
import { SANDBOX_EDGE_CASES } from "@/lib/market/sandbox/edge-cases";
import type { Opportunity, ServedOpportunity } from "@/lib/market/model/types";
import { createTestDatabase } from "@/tests/support/test-database";
import { expectEnvelope } from "./helpers/api-envelope";
import { createKeyFor, createUser, liveOpportunity, seedLiveOpportunities } from "@/tests/support/api-fixtures";

/** Half past a minute, so the steps below stay clear of the detail's minute boundary where it matters. */
const T0 = Date.UTC(2026, 10, 24, 12, 0, 30);
const SECOND = 1_000;
/** INGEST_INTERVAL_MS 60 s: legs and venues are stale after 180 s. */
const STALE_AFTER = 180 * SECOND;
/** OKX last answered 100 s before T0 (and its legs are of then): it turns stale at T0 + 80 s + 1 ms. */
const OKX_AT = T0 - 100 * SECOND;
const BINANCE_AT = T0 - 10 * SECOND;
const OKX_STALE_FROM = OKX_AT + STALE_AFTER + 1;

let database: OpenDatabase;
let services: AppServices;
let app: ReturnType<typeof createApiApp>;
let liveKey: string;
let testKey: string;

function observedAt(item: Opportunity, at: Record<string, number>): Opportunity {
  const leg = (l: Opportunity["long"]) => ({ ...l, observed_at: new Date(at[l.exchange]!).toISOString() });
  return { ...item, long: leg(item.long), short: leg(item.short), updated_at: new Date(Math.min(...Object.values(at))).toISOString() };
}

beforeAll(async () => {
  vi.useFakeTimers({ toFake: ["Date"], now: T0 - 60 * SECOND });
  database = await createTestDatabase();
  const db = database.db;
  services = createAppServices(async () => db, { ...process.env, INGEST_INTERVAL_MS: "60000" });
  app = createApiApp(() => services);
  const user = await createUser(db, "pro");
  liveKey = (await createKeyFor(db, user.id)).secret;
  testKey = (await createKeyFor(db, user.id, { mode: "test" })).secret;
  await db.venueHealth.createMany({
    data: [
      { id: "binance", status: "ok", lastAttemptAt: new Date(BINANCE_AT), lastSuccessAt: new Date(BINANCE_AT), marketsCount: 500 },
      { id: "okx", status: "ok", lastAttemptAt: new Date(OKX_AT), lastSuccessAt: new Date(OKX_AT), marketsCount: 300 },
      { id: "hyperliquid", status: "ok", lastAttemptAt: new Date(BINANCE_AT), lastSuccessAt: new Date(BINANCE_AT), marketsCount: 200 },
    ],
  });
  const at = { binance: BINANCE_AT, okx: OKX_AT, hyperliquid: BINANCE_AT };
  await seedLiveOpportunities(
    db,
    [observedAt(liveOpportunity("BTC", 20, "binance", "okx"), at), observedAt(liveOpportunity("ETH", 10, "binance", "hyperliquid"), at)],
    new Date(OKX_AT),
  );
  vi.setSystemTime(T0);
});
afterAll(async () => {
  vi.useRealTimers();
  await services?.stopRecorders();
  await database?.close();
});

async function get(path: string, key = liveKey) {
  const response = await app.fetch(new Request(`http://localhost${path}`, { headers: { Authorization: `Bearer ${key}` } }));
  const envelope = expectEnvelope(response.status, response.headers, await response.text(), path);
  expect(response.status, JSON.stringify(envelope)).toBe(200);
  if (envelope.kind !== "success") throw new Error("expected success");
  return { data: envelope.data as Record<string, any>, etag: response.headers.get("etag") }; // eslint-disable-line @typescript-eslint/no-explicit-any
}

const flags = (o: ServedOpportunity) => ({ id: o.id, stale: o.stale, long: o.long.stale, short: o.short.stale });
const listed = async (key = liveKey, query = "") => {
  const { data, etag } = await get(`/v1/opportunities${query}`, key);
  return { items: data.items as ServedOpportunity[], etag };
};
const venue = async (id: string, key = liveKey) => (await get("/v1/exchanges", key)).data.items.find((v: { id: string }) => v.id === id);

describe("a venue outliving its freshness while the published set stays", () => {
  it("is fresh at first: ok with its age, legs unflagged", async () => {
    expect(await venue("okx")).toMatchObject({ status: "ok", data_age_seconds: 100, stale_after_seconds: 180 });
    expect(await venue("binance")).toMatchObject({ status: "ok", data_age_seconds: 10 });
    const { items } = await listed();
    expect(items.map(flags)).toEqual([
      { id: "BTC-binance-okx", stale: false, long: false, short: false },
      { id: "ETH-binance-hyperliquid", stale: false, long: false, short: false },
    ]);
    expect(flags((await get("/v1/opportunities/BTC-binance-okx")).data as ServedOpportunity)).toEqual({
      id: "BTC-binance-okx", stale: false, long: false, short: false,
    });
  });

  it("serves the answers from the cache for at most a second (the legs' ages move), never past a leg turning stale", async () => {
    const before = await listed();
    const { hits, misses } = services.responseCache.stats();
    vi.setSystemTime(T0 + 999);
    const cached = await listed();
    expect(cached.etag).toBe(before.etag);
    expect(services.responseCache.stats()).toMatchObject({ hits: hits + 1, misses });
    vi.setSystemTime(OKX_STALE_FROM - 1);
    const rebuilt = await listed();
    expect(services.responseCache.stats()).toMatchObject({ misses: misses + 1 });
    // Only the ages moved: the ETag, which leaves them out, stands (a poller's If-None-Match still matches).
    expect(rebuilt.etag).toBe(before.etag);
    expect(rebuilt.items.every((o) => !o.stale)).toBe(true);
    expect(rebuilt.items[0]?.short.age_seconds).toBe(180);
    expect(await venue("okx")).toMatchObject({ status: "ok", data_age_seconds: 180 });
  });

  it("then answers the venue stale with its age and flags its legs on the listing and the detail, the set unchanged", async () => {
    const { misses } = services.responseCache.stats();
    const before = await listed();
    vi.setSystemTime(OKX_STALE_FROM);
    expect(await venue("okx")).toMatchObject({ status: "stale", data_age_seconds: 180.001, stale_after_seconds: 180, last_error: null });
    expect(await venue("binance")).toMatchObject({ status: "ok", data_age_seconds: 90.001 });

    const after = await listed();
    expect(after.etag).not.toBe(before.etag);
    expect(after.items.map(flags)).toEqual([
      { id: "BTC-binance-okx", stale: true, long: false, short: true },
      { id: "ETH-binance-hyperliquid", stale: false, long: false, short: false },
    ]);
    // The okx leg's numbers are exactly as published: only the flag is added.
    expect(after.items[0]?.short.observed_at).toBe(new Date(OKX_AT).toISOString());
    const detail = (await get("/v1/opportunities/BTC-binance-okx")).data as ServedOpportunity;
    expect(flags(detail)).toEqual({ id: "BTC-binance-okx", stale: true, long: false, short: true });
    expect(services.responseCache.stats().misses).toBeGreaterThan(misses);
    expect(await get("/v1/opportunities?exchange=okx")).toMatchObject({ data: { total: 1 } });
  });

  it("flags every leg once every venue is older than the threshold, and no answer is reused past it", async () => {
    vi.setSystemTime(BINANCE_AT + STALE_AFTER + 1);
    const { items } = await listed();
    expect(items.every((o) => o.stale && o.long.stale && o.short.stale)).toBe(true);
    for (const id of ["binance", "okx", "hyperliquid"]) expect((await venue(id)).status).toBe("stale");
  });
});

describe("the sandbox's stale venue (test keys)", () => {
  const { staleVenue } = SANDBOX_EDGE_CASES;

  it(`answers ${staleVenue} stale with its age and flags its legs, and only its legs`, async () => {
    vi.setSystemTime(T0);
    const gate = await venue(staleVenue, testKey);
    expect(gate).toMatchObject({ status: "stale", stale_after_seconds: 180 });
    expect(gate.data_age_seconds).toBeGreaterThan(180);
    expect(gate.data_age_seconds).toBe((T0 - Date.parse(gate.last_success_at)) / 1000);

    const onGate = (await listed(testKey, `?exchange=${staleVenue}&limit=100`)).items;
    expect(onGate.length).toBeGreaterThan(10);
    for (const o of onGate) {
      expect(o.stale, o.id).toBe(true);
      expect(o.long.stale, o.id).toBe(o.long.exchange === staleVenue);
      expect(o.short.stale, o.id).toBe(o.short.exchange === staleVenue);
    }
    const fresh = (await listed(testKey, "?exchange=binance&limit=100")).items.filter((o) => !o.id.includes(`-${staleVenue}`));
    expect(fresh.length).toBeGreaterThan(10);
    expect(fresh.every((o) => !o.stale && !o.long.stale && !o.short.stale)).toBe(true);

    const detail = (await get(`/v1/opportunities/${onGate[0]!.id}`, testKey)).data as ServedOpportunity;
    expect(detail.stale).toBe(true);
    expect([detail.long, detail.short].find((l) => l.exchange === staleVenue)?.stale).toBe(true);
  });
});
