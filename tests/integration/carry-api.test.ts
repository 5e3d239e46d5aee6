import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApiApp } from "@/lib/api/app";
import { createAppServices, type AppServices } from "@/lib/app-services";
import type { z } from "zod";
import { publishCarrySet } from "@/lib/market/carry/carry-store";
import type { carryQuoteSchema } from "@/lib/quote/carry-quote-schema";
import type { CarryOpportunity } from "@/lib/market/carry/carry-opportunity";
import { createKeyFor, createUser, liveOpportunity, seedLiveCarry, seedLiveOpportunities } from "@/tests/support/api-fixtures";
import { makeSnapshot } from "@/tests/support/market/make-snapshot";
import { makeSpot } from "@/tests/support/market/make-spot";
import { testDatabaseForFile } from "@/tests/support/test-database-for-file";
import { expectEnvelope } from "./helpers/api-envelope";

type CarryQuote = z.infer<typeof carryQuoteSchema>;
type Page = { items: CarryOpportunity[]; total: number; limit: number; offset: number; has_more: boolean };

const database = testDatabaseForFile();
let services: AppServices;
let app: ReturnType<typeof createApiApp>;
let liveKey: string;
let testKey: string;
let narrowKey: string;
let freeKey: string;
const asOf = new Date("2026-11-21T15:59:00Z");

beforeAll(async () => {
  const db = database.db;
  services = createAppServices(async () => db);
  app = createApiApp(() => services);
  await seedLiveOpportunities(db, [liveOpportunity("BTC", 12.5)]);
  const pro = await createUser(db, "pro");
  liveKey = (await createKeyFor(db, pro.id)).secret;
  testKey = (await createKeyFor(db, pro.id, { mode: "test" })).secret;
  narrowKey = (await createKeyFor(db, pro.id, { permissions: ["portfolio:read"] })).secret;
  freeKey = (await createKeyFor(db, (await createUser(db, "free")).id)).secret;
});
afterAll(async () => {
  await services?.stopRecorders();
});

async function get(path: string, key = liveKey, headers: Record<string, string> = {}) {
  const response = await app.fetch(new Request(`http://localhost${path}`, { headers: { Authorization: `Bearer ${key}`, ...headers } }));
  return { status: response.status, etag: response.headers.get("etag"), envelope: expectEnvelope(response.status, response.headers, await response.text(), path) };
}

function page(answer: Awaited<ReturnType<typeof get>>) {
  if (answer.envelope.kind !== "success") throw new Error(`expected a page, got ${answer.status}`);
  return answer.envelope.data as Page;
}

function error(answer: Awaited<ReturnType<typeof get>>) {
  if (answer.envelope.kind !== "error") throw new Error(`expected an error, got ${answer.status}`);
  return answer.envelope.error;
}

describe("GET /v1/carry-opportunities", () => {
  // In order: the list is empty before the first carry set, then serves the one seeded.
  it("is empty, of no moment, before a carry set is published", async () => {
    const answer = await get("/v1/carry-opportunities");
    expect(answer.status).toBe(200);
    expect(page(answer)).toEqual({ items: [], total: 0, limit: 50, offset: 0, has_more: false });
    expect(answer.envelope.meta).toMatchObject({ data_as_of: null, sample: false, mode: "live" });
  });

  it("serves the published set, filtered, sorted and paged, and sees the next set once its version moves", async () => {
    await seedLiveCarry(database.db, asOf);
    services.carryPublished();
    const all = await get("/v1/carry-opportunities?limit=100");
    expect(all.envelope.meta).toMatchObject({ data_as_of: asOf.toISOString(), sample: false, mode: "live" });
    const listed = page(all);
    expect(listed.total).toBe(12);
    expect(listed.items[0]).toMatchObject({ id: "BTC-spot_perp-binance-bybit", type: "spot_perp", spot: { exchange: "binance" }, perp: { exchange: "bybit" } });

    const borrowed = page(await get("/v1/carry-opportunities?type=perp_spot&symbol=eth"));
    expect(borrowed.items.map((item) => item.id)).toEqual(["ETH-perp_spot-bybit-binance", "ETH-perp_spot-binance-binance"]);
    expect(borrowed.items[0]).toMatchObject({ borrow_apr: 3.65, borrowable: 50 });

    const onlyBybit = page(await get("/v1/carry-opportunities?exchanges=bybit&sort=net_apr"));
    expect(onlyBybit.items.every((item) => item.spot.exchange === "bybit" && item.perp.exchange === "bybit")).toBe(true);
    expect(onlyBybit.items.map((item) => item.net_apr)).toEqual([...onlyBybit.items.map((item) => item.net_apr)].sort((a, b) => a - b));

    const second = page(await get("/v1/carry-opportunities?limit=5&offset=5&min_apr=0"));
    expect(second).toMatchObject({ limit: 5, offset: 5 });
    expect(second.has_more).toBe(second.total > 10);

    // Another process's publish: seen once the version check (every 2 s) finds it.
    await publishCarrySet(database.db, {
      perps: [makeSnapshot({ exchange: "okx", fundingRate: 0.0005 })],
      spots: [makeSpot({ exchange: "okx" })],
      at: new Date(asOf.getTime() + 60_000),
    });
    await expect.poll(async () => page(await get("/v1/carry-opportunities")).total, { timeout: 10_000, interval: 250 }).toBe(1);
  });

  it("answers 304 to a poller whose ETag is current", async () => {
    const first = await get("/v1/carry-opportunities?limit=3");
    expect(first.etag).toBeTruthy();
    const response = await app.fetch(new Request("http://localhost/v1/carry-opportunities?limit=3", { headers: { Authorization: `Bearer ${liveKey}`, "If-None-Match": first.etag! } }));
    expect(response.status).toBe(304);
  });

  it.each([
    ["type=perp_perp", "type", /spot_perp, perp_spot \(perpetual pairs are listed by \/v1\/opportunities\)/],
    ["sort=open_interest", "sort", /apr, -apr, net_apr, -net_apr/],
    ["limit=0", "limit", /./],
    ["min_apr=high", "min_apr", /./],
    ["exchange=nowhere", "exchange", /./],
    ["unknown=1", "unknown", /./],
  ])("refuses %s with a 400 naming the field", async (search, field, message) => {
    const answer = await get(`/v1/carry-opportunities?${search}`);
    expect(answer.status).toBe(400);
    const problem = error(answer);
    expect(problem.code).toBe("VALIDATION_ERROR");
    expect(problem.details?.find((d) => d.field === field)?.message).toMatch(message);
  });

  it("needs opportunities:read, which the Free plan does not give", async () => {
    expect((await get("/v1/carry-opportunities", narrowKey)).status).toBe(403);
    expect(error(await get("/v1/carry-opportunities", narrowKey)).message).toMatch(/needs opportunities:read/);
    expect((await get("/v1/carry-opportunities", freeKey)).status).toBe(403);
    expect((await get("/v1/carry-opportunities", "svc_sk_live_nothing")).status).toBe(401);
  });

  it("gives test keys the sandbox's carry set, never the live one", async () => {
    const answer = await get("/v1/carry-opportunities?limit=100", testKey);
    expect(answer.envelope.meta).toMatchObject({ mode: "test", sample: false });
    const sandbox = page(answer);
    expect(sandbox.total).toBeGreaterThan(1_000);
    expect(new Set(sandbox.items.map((item) => item.type))).toEqual(new Set(["spot_perp", "perp_spot"]));
  });
});

describe("GET /v1/carry-opportunities/{id}", () => {
  it("answers one item of the current set as listed", async () => {
    const listed = page(await get("/v1/carry-opportunities"));
    const answer = await get(`/v1/carry-opportunities/${listed.items[0]!.id}`);
    expect(answer.status).toBe(200);
    expect(answer.envelope.kind === "success" && answer.envelope.data).toEqual(listed.items[0]);
  });

  it("answers 404 for a well-formed id not in the set, and 400 for an id that is no carry id", async () => {
    const missing = await get("/v1/carry-opportunities/BTC-spot_perp-gate-mexc");
    expect(missing.status).toBe(404);
    expect(error(missing)).toMatchObject({ code: "NOT_FOUND", message: 'No carry opportunity with id "BTC-spot_perp-gate-mexc"' });
    for (const id of ["BTC-binance-bybit", "BTC-carry-binance-bybit", "spot_perp-binance-bybit"]) {
      const malformed = await get(`/v1/carry-opportunities/${id}`);
      expect(malformed.status, id).toBe(400);
      expect(error(malformed).message).toMatch(/is not a carry opportunity id: expected <asset>-<spot_perp\|perp_spot>-<long exchange>-<short exchange>/);
    }
  });

  it("needs opportunities:read", async () => {
    expect((await get("/v1/carry-opportunities/BTC-spot_perp-okx-okx", narrowKey)).status).toBe(403);
  });
});

describe("GET /v1/carry-opportunities/{id}/quote", () => {
  it("prices a held and a borrowed carry trade from both books, with the borrow cost and the perpetual's liquidation", async () => {
    const sandbox = page(await get("/v1/carry-opportunities?limit=100", testKey));
    for (const type of ["spot_perp", "perp_spot"] as const) {
      const item = sandbox.items.find((candidate) => candidate.type === type)!;
      const answer = await get(`/v1/carry-opportunities/${item.id}/quote?notional=20000&hold_hours=72&leverage=2`, testKey);
      expect(answer.status, JSON.stringify(answer.envelope)).toBe(200);
      if (answer.envelope.kind !== "success") throw new Error("expected a quote");
      const quote = answer.envelope.data as CarryQuote;
      expect(quote).toMatchObject({ opportunity_id: item.id, symbol: item.symbol, type, notional_usd: 20_000, hold_hours: 72, leverage: 2 });
      expect(quote.spot).toMatchObject({ exchange: item.spot.exchange, market: item.spot.market, liquidation: null, liquidation_unavailable_reason: "spot_not_liquidated" });
      expect(quote.perp).toMatchObject({ exchange: item.perp.exchange, market: item.perp.market });
      // The net is what funding leaves after borrowing and the four fills.
      expect(quote.net_usd).toBeCloseTo(quote.funding_usd - quote.borrow_usd - quote.cost_usd, 4);
      if (type === "spot_perp") expect([quote.spot.side, quote.spot.borrow, quote.borrow_usd]).toEqual(["long", null, 0]);
      else {
        expect(quote.spot.side).toBe("short");
        expect(quote.spot.borrow).toMatchObject({ borrow_apr: item.borrow_apr! });
        expect(quote.borrow_usd).toBeGreaterThan(0);
      }
    }
  });

  it("answers 400 for an id that is no carry id and 404 for one not in the set", async () => {
    expect((await get("/v1/carry-opportunities/BTC-binance-bybit/quote?notional=1000")).status).toBe(400);
    expect(error(await get("/v1/carry-opportunities/BTC-spot_perp-gate-mexc/quote?notional=1000"))).toMatchObject({ code: "NOT_FOUND" });
    expect((await get("/v1/carry-opportunities/BTC-spot_perp-okx-okx/quote?notional=1000", narrowKey)).status).toBe(403);
  });
});

describe("GET /v1/opportunities?type=", () => {
  it("accepts perp_perp, the type of every item there, and points carry types to /v1/carry-opportunities", async () => {
    const all = await get("/v1/opportunities");
    const perps = await get("/v1/opportunities?type=perp_perp");
    expect(perps.status).toBe(200);
    expect(perps.envelope.kind === "success" && perps.envelope.data).toEqual(all.envelope.kind === "success" && all.envelope.data);
    const carry = await get("/v1/opportunities?type=spot_perp");
    expect(carry.status).toBe(400);
    expect(error(carry).details?.find((d) => d.field === "type")?.message).toMatch(/\/v1\/carry-opportunities/);
  });
});
