// The feeds' freshness as served: the ingesting process's FeedStatusBoard stored by its writer
// (VenueFeedStatus) and read back by a server for GET /v1/exchanges, and each opportunity leg's
// transport and age, computed at the moment of each answer. Only Date is faked.
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createApiApp } from "@/lib/api/app";
import { createAppServices, type AppServices } from "@/lib/app-services";
import type { OpenDatabase } from "@/lib/db/open-database";
import { FeedStatusBoard } from "@/lib/market/ingest/feed-status-board";
import { readFeedStatus } from "@/lib/market/ingest/feed-status-store";
import { FeedStatusWriter } from "@/lib/market/ingest/feed-status-writer";
import type { Opportunity, ServedOpportunity } from "@/lib/market/model/types";
import { createTestDatabase } from "@/tests/support/test-database";
import { expectEnvelope } from "./helpers/api-envelope";
import { createKeyFor, createUser, liveOpportunity, seedLiveOpportunities } from "@/tests/support/api-fixtures";

const T0 = Date.UTC(2026, 11, 2, 12, 0, 30);
const SECOND = 1_000;
const MINUTE = 60 * SECOND;
const BINANCE_AT = T0 - 2_500;
const OKX_AT = T0 - 40 * SECOND;

let database: OpenDatabase;
let services: AppServices;
let app: ReturnType<typeof createApiApp>;
let liveKey: string;
let testKey: string;
const board = new FeedStatusBoard();
let writer: FeedStatusWriter;

beforeAll(async () => {
  vi.useFakeTimers({ toFake: ["Date"], now: T0 });
  database = await createTestDatabase();
  const db = database.db;
  services = createAppServices(async () => db, { ...process.env, INGEST_INTERVAL_MS: "60000" });
  app = createApiApp(() => services);
  const user = await createUser(db, "pro");
  liveKey = (await createKeyFor(db, user.id)).secret;
  testKey = (await createKeyFor(db, user.id, { mode: "test" })).secret;
  await db.venueHealth.createMany({
    data: [
      { id: "binance", status: "ok", lastAttemptAt: new Date(T0 - MINUTE), lastSuccessAt: new Date(T0 - MINUTE), marketsCount: 500 },
      { id: "okx", status: "ok", lastAttemptAt: new Date(OKX_AT), lastSuccessAt: new Date(OKX_AT), marketsCount: 300 },
    ],
  });
  const item = liveOpportunity("BTC", 20, "binance", "okx");
  const legs: Opportunity = {
    ...item,
    long: { ...item.long, observed_at: new Date(BINANCE_AT).toISOString(), transport: "stream" },
    short: { ...item.short, observed_at: new Date(OKX_AT).toISOString(), transport: "poll" },
  };
  await seedLiveOpportunities(db, [legs], new Date(OKX_AT));
  writer = new FeedStatusWriter(board, async () => db, 60_000, () => Date.now());
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
  return envelope.data as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
}
const feedOf = async (id: string, key = liveKey) => (await get("/v1/exchanges", key)).items.find((v: { id: string }) => v.id === id).feed;

describe("the feed board stored and read back", () => {
  it("round-trips every figure through VenueFeedStatus, and a later write replaces the row", async () => {
    board.transport("binance", "stream");
    for (let i = 0; i < 20; i++) board.message("binance", T0 - 20 * SECOND + i * SECOND);
    for (let i = 1; i <= 100; i++) board.published("binance", T0 - 10 * MINUTE - i * 10, T0 - 10 * MINUTE);
    board.reconnect("binance", T0 - 2 * 3_600_000);
    board.reconnect("binance", T0 - 30 * MINUTE);
    board.transport("htx", "poll", "no message for 90 s");
    board.pollInterval("htx", 10_000);
    await writer.write();
    const stored = await readFeedStatus(database.db);
    const figures = board.figures(T0);
    expect([...stored.keys()].sort()).toEqual(["binance", "htx"]);
    for (const f of figures) expect(stored.get(f.venue)).toEqual({ ...f, updatedAt: T0 });
    expect(stored.get("binance")).toMatchObject({ transport: "stream", reconnects24h: 2, latencySamples: 100, lastMessageAt: T0 - SECOND });
    expect(stored.get("binance")!.series).toHaveLength(60);

    vi.setSystemTime(T0 + 5 * SECOND);
    board.message("binance", T0 + 4 * SECOND);
    await writer.stop();
    const again = await readFeedStatus(database.db);
    expect(again.get("binance")).toMatchObject({ lastMessageAt: T0 + 4 * SECOND, updatedAt: T0 + 5 * SECOND });
    expect(await database.db.venueFeedStatus.count()).toBe(2);
    vi.setSystemTime(T0);
  });
});

describe("GET /v1/exchanges", () => {
  it("gives a streamed venue's transport, last message age, latency percentiles and reconnects", async () => {
    const feed = await feedOf("binance");
    expect(feed).toMatchObject({
      transport: "stream",
      transport_reason: null,
      poll_interval_seconds: null,
      last_message_at: new Date(T0 + 4 * SECOND).toISOString(),
      // The venue's clock-ahead message counts as age 0, never negative.
      last_message_age_seconds: 0,
      latency_samples: 100,
      reconnects_24h: 2,
      as_of: new Date(T0 + 5 * SECOND).toISOString(),
    });
    // Latencies 10..1000 ms: nearest-rank p50 500 ms, p99 990 ms, within the histogram's 5 %.
    expect(Math.abs(feed.latency_p50_ms - 500) / 500).toBeLessThan(0.05);
    expect(Math.abs(feed.latency_p99_ms - 990) / 990).toBeLessThan(0.05);
  });

  it("gives a polled venue its cadence and reason, and a venue nothing reported as polled by the rounds", async () => {
    expect(await feedOf("htx")).toMatchObject({ transport: "poll", transport_reason: "no message for 90 s", poll_interval_seconds: 10, latency_p50_ms: null, latency_p99_ms: null, latency_samples: 0 });
    expect(await feedOf("okx")).toMatchObject({
      transport: "poll",
      poll_interval_seconds: 60,
      last_message_at: new Date(OKX_AT).toISOString(),
      last_message_age_seconds: 40,
      latency_p50_ms: null,
      reconnects_24h: 0,
      as_of: null,
    });
    expect(await feedOf("binance", testKey)).toMatchObject({ transport: "poll", reconnects_24h: 0, as_of: null });
  });
});

describe("opportunity legs", () => {
  it("carry their transport and their age at the moment of each answer", async () => {
    const first = (await get("/v1/opportunities")).items[0] as ServedOpportunity;
    expect(first.long).toMatchObject({ exchange: "binance", transport: "stream", age_seconds: 2 });
    expect(first.short).toMatchObject({ exchange: "okx", transport: "poll", age_seconds: 40 });
    vi.setSystemTime(T0 + 12_600);
    const later = (await get("/v1/opportunities")).items[0] as ServedOpportunity;
    expect(later.long.age_seconds).toBe(15);
    expect(later.short.age_seconds).toBe(52);
    const detail = (await get("/v1/opportunities/BTC-binance-okx")) as ServedOpportunity;
    expect([detail.long.age_seconds, detail.short.age_seconds, detail.long.transport]).toEqual([15, 52, "stream"]);
  });
});
