import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApiApp } from "@/lib/api/app";
import { createAppServices, type AppServiceOptions, type AppServices } from "@/lib/app-services";
import type { Db } from "@/lib/db";
import type { OpenDatabase } from "@/lib/db/open-database";
import { publishSampleIfNeverLive } from "@/lib/market/ingest/publish-sample-market";
import { quoteSchema } from "@/lib/quote/quote-schema";
import { requestsPerMinute } from "@/lib/plans";
import { replayedDepthSources, venueBookRoutes } from "@/tests/support/market/book-replays";
import { fixedBook } from "@/tests/support/market/fixed-depth";
import { ccxtDepthSource } from "@/lib/market/books/ccxt-depth-source";
import { marginUnavailable } from "@/lib/market/books/margin-table";
import { createReplayFetch } from "@/lib/market/venues/replay-fetch";
import { usdtPerp } from "@/tests/support/market/make-snapshot";
import { createTestDatabase } from "@/tests/support/test-database";
import { expectEnvelope, expectRateLimitHeaders } from "./helpers/api-envelope";
import { createKeyFor, createUser, liveOpportunity, seedLiveOpportunities } from "@/tests/support/api-fixtures";
import type { Json } from "./helpers/market-api";

// GET /v1/opportunities/{id}/quote end to end: live keys quoted from venue books replayed through
// ccxt (the recordings in tests/fixtures/venues, never the network), the offline sample's recorded
// books, and test keys' sandbox books.

interface Api {
  database: OpenDatabase;
  services: AppServices;
  app: ReturnType<typeof createApiApp>;
  liveKey: string;
  testKey: string;
}

const opened: Api[] = [];

/** The API on a fresh database with a Desk account's live and test keys, quotes reading `options`' books. */
async function startApi(options: AppServiceOptions, seed: (db: Db) => Promise<unknown>): Promise<Api> {
  const database = await createTestDatabase();
  const services = createAppServices(async () => database.db, process.env, options);
  const app = createApiApp(() => services);
  await seed(database.db);
  const user = await createUser(database.db, "desk");
  const api = {
    database,
    services,
    app,
    liveKey: (await createKeyFor(database.db, user.id)).secret,
    testKey: (await createKeyFor(database.db, user.id, { mode: "test" })).secret,
  };
  opened.push(api);
  return api;
}

/** BTC long on bybit, short on okx (both BTC/USDT:USDT), with bybit's taker fee stated in the last round and okx's not. */
async function seedBybitOkx(db: Db) {
  const opportunity = liveOpportunity("BTC", 12, "bybit", "okx");
  await seedLiveOpportunities(db, [{ ...opportunity, long: { ...opportunity.long, funding_rate: 0.00005 }, short: { ...opportunity.short, funding_rate: 0.0002 } }]);
  const round = await db.ingestionRound.create({ data: { startedAt: new Date(), status: "published" } });
  await db.roundSnapshot.create({ data: { roundId: round.id, exchange: "bybit", ...usdtPerp("BTC"), takerFee: 0.00055, observedAt: new Date() } });
}

async function quote(api: Api, path: string, key = api.liveKey) {
  const response = await api.app.fetch(new Request(`http://localhost${path}`, { headers: { Authorization: `Bearer ${key}` } }));
  const envelope = expectEnvelope(response.status, response.headers, await response.text(), `GET ${path}`);
  return { status: response.status, envelope, headers: response.headers };
}

async function quoteData(api: Api, path: string, key?: string): Promise<{ data: Json; meta: Json }> {
  const { status, envelope } = await quote(api, path, key);
  expect(status, JSON.stringify(envelope)).toBe(200);
  if (envelope.kind !== "success") throw new Error("expected success");
  // Exactly the documented shape: parsing drops nothing and changes nothing.
  expect(quoteSchema.parse(envelope.data)).toEqual(envelope.data);
  return { data: envelope.data as Json, meta: envelope.meta as Json };
}

async function refusal(api: Api, path: string, status: number, key?: string) {
  const result = await quote(api, path, key);
  expect(result.status, JSON.stringify(result.envelope)).toBe(status);
  if (result.envelope.kind !== "error") throw new Error("expected an error");
  return { ...result.envelope.error, headers: result.headers };
}

afterAll(async () => {
  for (const api of opened) {
    await api.services.stopRecorders();
    await api.database.close();
  }
});

describe("live keys: books read from the venues", () => {
  let api: Api;
  let replays: ReturnType<typeof replayedDepthSources>;
  beforeAll(async () => {
    replays = replayedDepthSources();
    api = await startApi({ depthSources: replays.sources }, seedBybitOkx);
  });

  it("walks both legs' books, answers every figure, and flags a book too thin for the size", async () => {
    const { data, meta } = await quoteData(api, "/v1/opportunities/BTC-bybit-okx/quote?notional=50000&hold_hours=24&leverage=2");
    expect(meta).toMatchObject({ mode: "live", sample: false });
    expect(data).toMatchObject({ opportunity_id: "BTC-bybit-okx", symbol: "BTC", notional_usd: 50_000, hold_hours: 24, leverage: 2 });
    // Bybit's recorded book (2024-04-01) is in the coin; OKX's (2022-06-04) counts contracts of 0.01 BTC.
    expect(data.long).toMatchObject({ exchange: "bybit", side: "long", depth_source: "venue", depth_timestamp: "2024-04-01T08:38:21.415Z", contract_size: 1 });
    expect(data.short).toMatchObject({ exchange: "okx", side: "short", depth_source: "venue", depth_timestamp: "2022-06-04T08:00:07.417Z", contract_size: 0.01 });
    // OKX's excerpt bids 5 + 2 + 2 = 9 contracts, 0.09 BTC, at a mid of (29701.6 + 29701.7) / 2 = 29701.65:
    // 2,673.1485 can be left again, so both legs are quoted at that and the quote says it is thin.
    expect(data.thin_book).toBe(true);
    expect(data.short.fillable_notional_usd).toBeCloseTo(2_673.1485, 6);
    expect(data.filled_notional_usd).toBeCloseTo(2_673.1485, 6);
    expect(data.short.entry).toMatchObject({ side: "sell", levels: 3 });
    expect(data.short.entry.quantity).toBeCloseTo(0.09, 12);
    // Bybit's fee as last ingested; OKX stated none, so the default.
    expect(data.long).toMatchObject({ taker_fee: 0.00055, taker_fee_source: "venue_base_tier" });
    expect(data.short).toMatchObject({ taker_fee: 0.0006, taker_fee_source: "default" });
    // Neither venue's tiers were recorded for the replay: no liquidation price, and why.
    expect(data.long.liquidation).toMatchObject({ price: null, unavailable_reason: "venue_unavailable" });
    expect(data.funding_usd).toBeCloseTo(data.long.funding.funding_usd + data.short.funding.funding_usd, 6);
    expect(data.net_usd).toBeCloseTo(data.funding_usd - data.cost_usd, 6);
  });

  it("answers 50 concurrent quotes of a cold market with one book request per venue", async () => {
    const cold = replayedDepthSources();
    const fresh = await startApi({ depthSources: cold.sources }, seedBybitOkx);
    const answers = await Promise.all(Array.from({ length: 50 }, () => quote(fresh, "/v1/opportunities/BTC-bybit-okx/quote?notional=1000")));
    expect(answers.map((a) => a.status)).toEqual(Array(50).fill(200));
    expect(cold.bookRequests("bybit")).toBe(1);
    expect(cold.bookRequests("okx")).toBe(1);
  });

  it("answers 503 VENUE_UNAVAILABLE naming a venue that does not answer in time, with the rate-limit headers, never a 500", async () => {
    const hanging = replayedDepthSources({ okx: { hang: true } });
    const slow = await startApi({ depthSources: hanging.sources, depth: { deadlineMs: 300 } }, seedBybitOkx);
    const started = performance.now();
    const error = await refusal(slow, "/v1/opportunities/BTC-bybit-okx/quote?notional=1000", 503);
    expect(performance.now() - started).toBeLessThan(5_000);
    expect(error.code).toBe("VENUE_UNAVAILABLE");
    expect(error.message).toBe("okx did not send the order book of BTC/USDT:USDT within 300 ms");
    expectRateLimitHeaders(error.headers, requestsPerMinute("desk"), "503 quote");
  });

  it("answers 404 for an opportunity that is not listed", async () => {
    expect((await refusal(api, "/v1/opportunities/BTC-okx-bybit/quote?notional=1000", 404)).code).toBe("NOT_FOUND");
  });
});

describe("live keys while the offline sample is served: its recorded books", () => {
  let api: Api;
  beforeAll(async () => {
    // The live sources would fail every request: the sample never reaches them.
    api = await startApi({ depthSources: replayedDepthSources({ binance: { fail: new Error("no network") }, bybit: { fail: new Error("no network") } }).sources }, (db) =>
      publishSampleIfNeverLive(db),
    );
  });

  it("quotes the sample's BTC markets from real recorded books, dated by their recordings", async () => {
    const { data, meta } = await quoteData(api, "/v1/opportunities/BTC-binance-bybit/quote?notional=50000&leverage=3");
    expect(meta).toMatchObject({ mode: "live", sample: true });
    expect(data.long).toMatchObject({ exchange: "binance", depth_source: "recording", depth_timestamp: "2022-06-03T05:03:26.695Z" });
    expect(data.short).toMatchObject({ exchange: "bybit", depth_source: "recording", depth_timestamp: "2024-04-01T08:38:21.415Z" });
    // Binance's excerpt bids 0.482 + 0.012 + 0.001 = 0.495 BTC at a mid of 30,430.85: 15,063.27 can be left again.
    expect(data.thin_book).toBe(true);
    expect(data.filled_notional_usd).toBeCloseTo(0.495 * 30_430.85, 6);
    // Binance's recorded brackets: 15,063 is in the first (0.4 %, 125x).
    expect(data.long.liquidation).toMatchObject({ maintenance_margin_rate: 0.004, max_leverage: 125, source: "leverage_tiers", unavailable_reason: null });
    expect(data.short.liquidation).toMatchObject({ price: null, unavailable_reason: "not_recorded" });
  });

  it("answers 503 for a sample market without a recorded book", async () => {
    const error = await refusal(api, "/v1/opportunities/ETH-okx-binance/quote?notional=1000", 503);
    expect(error.code).toBe("VENUE_UNAVAILABLE");
    expect(error.message).toContain("no recorded order book of ETH/USDT:USDT on okx");
  });
});

describe("test keys: the sandbox's books", () => {
  let api: Api;
  beforeAll(async () => {
    // Test keys never read the venues: every live source here would fail.
    api = await startApi({ depthSources: {} }, async () => undefined);
  });

  /** Two quotes within one sandbox minute (retried once if the minute turned between them). */
  async function twice(path: string) {
    for (let attempt = 0; ; attempt++) {
      const first = await quoteData(api, path, api.testKey);
      const second = await quoteData(api, path, api.testKey);
      if (first.data.quoted_at === second.data.quoted_at || attempt > 0) return [first, second] as const;
    }
  }

  it("gives the same quote all minute, dated at the minute's start", async () => {
    const [first, second] = await twice("/v1/opportunities/BTC-binance-bybit/quote?notional=250000&leverage=5");
    expect(second.data).toEqual(first.data);
    expect(first.meta).toMatchObject({ mode: "test", sample: false });
    expect(first.data.quoted_at).toMatch(/:00\.000Z$/);
    expect(first.data.long).toMatchObject({ depth_source: "sandbox", depth_timestamp: first.data.quoted_at });
    expect(first.data.thin_book).toBe(false);
    // Binance's sandbox brackets: 250,000 is in the second (0.5 %, 100x).
    expect(first.data.long.liquidation).toMatchObject({ maintenance_margin_rate: 0.005, max_leverage: 100, source: "leverage_tiers" });
    expect(first.data.long.liquidation.price).toBeLessThan(first.data.long.mid_price);
    expect(first.data.short.liquidation.price).toBeGreaterThan(first.data.short.mid_price);
  });

  it("answers a size the book cannot take with what could be filled, and the flag", async () => {
    const { data } = await quoteData(api, "/v1/opportunities/SBXNEG-bybit-okx/quote?notional=1000000", api.testKey);
    expect(data.thin_book).toBe(true);
    expect(data.notional_usd).toBe(1_000_000);
    expect(data.filled_notional_usd).toBeGreaterThan(0);
    expect(data.filled_notional_usd).toBeLessThan(1_000_000);
    expect(data.filled_notional_usd).toBeCloseTo(Math.min(data.long.fillable_notional_usd, data.short.fillable_notional_usd), 6);
  });

  it("refuses a leverage above what a leg's venue allows at this size, naming it", async () => {
    // The sandbox gives Hyperliquid's small markets 10x.
    const error = await refusal(api, "/v1/opportunities/SBXNEG-bybit-hyperliquid/quote?notional=1000&leverage=50", 400, api.testKey);
    expect(error.details).toEqual([{ field: "leverage", message: "Must be at most 10 for this pair at this size: hyperliquid allows 10x on SBXNEG/USDC:USDC" }]);
  });
});

describe("live keys: a venue whose tiers are not read", () => {
  let api: Api;
  beforeAll(async () => {
    // KuCoin's margin as its depth source reads it from the recorded contract list (ETHUSDTM
    // `maxLeverage` 100), over a made-up book; the OKX leg states no tiers at all.
    const kucoin = createReplayFetch(venueBookRoutes("kucoinfutures"));
    const kucoinMargin = ccxtDepthSource("kucoinfutures", { fetchImplementation: kucoin.fetchImplementation, enableRateLimit: false });
    api = await startApi(
      {
        depthSources: {
          kucoinfutures: { book: async () => fixedBook(), margin: (market) => kucoinMargin.margin(market) },
          okx: { book: async () => fixedBook(), margin: async () => marginUnavailable("not_published", "no tiers") },
        },
      },
      (db) => seedLiveOpportunities(db, [liveOpportunity("ETH", 12, "kucoinfutures", "okx")]),
    );
  });

  it("holds the leverage to the market's maximum from the venue's market list", async () => {
    const error = await refusal(api, "/v1/opportunities/ETH-kucoinfutures-okx/quote?notional=1000&leverage=110", 400);
    expect(error.details).toEqual([{ field: "leverage", message: "Must be at most 100 for this pair at this size: kucoinfutures allows 100x on ETH/USDT:USDT" }]);
    const { data } = await quoteData(api, "/v1/opportunities/ETH-kucoinfutures-okx/quote?notional=1000&leverage=100");
    expect(data.long.liquidation).toMatchObject({ price: null, max_leverage: 100, unavailable_reason: "not_published" });
  });
});

describe("validation", () => {
  let api: Api;
  beforeAll(async () => {
    api = await startApi({ depthSources: {} }, async () => undefined);
  });

  it.each([
    ["", "notional", "Required"],
    ["notional=0", "notional", "Must be more than 0"],
    ["notional=-5", "notional", "Must be more than 0"],
    ["notional=10000001", "notional", "Must be at most 10000000"],
    ["notional=lots", "notional", "Must be a number"],
    ["notional=1000&hold_hours=0", "hold_hours", "Must be at least 1"],
    ["notional=1000&hold_hours=8761", "hold_hours", "Must be at most 8760"],
    ["notional=1000&hold_hours=1.5", "hold_hours", "Must be a whole number"],
    ["notional=1000&leverage=0.5", "leverage", "Must be at least 1"],
    ["notional=1000&leverage=126", "leverage", "Must be at most 125"],
    ["notional=1000&size=5", "size", "Unknown query parameter"],
  ])("refuses ?%s with a 400 naming %s", async (query, field, message) => {
    const error = await refusal(api, `/v1/opportunities/BTC-binance-bybit/quote?${query}`, 400, api.testKey);
    expect(error.code).toBe("VALIDATION_ERROR");
    expect(error.details?.[0]?.field).toBe(field);
    expect(error.details?.[0]?.message).toMatch(new RegExp(`^${message.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}`, "i"));
  });

  it("holds for 72 hours at 1x unless told otherwise", async () => {
    const { data } = await quoteData(api, "/v1/opportunities/BTC-binance-bybit/quote?notional=1000", api.testKey);
    expect(data).toMatchObject({ hold_hours: 72, leverage: 1 });
  });
});
