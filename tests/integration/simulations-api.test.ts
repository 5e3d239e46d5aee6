import { beforeAll, describe, expect, it } from "vitest";
import { MAX_BODY_BYTES } from "@/lib/api/read-json";
import { createKeyFor, createUser, seedLiveCarry } from "@/tests/support/api-fixtures";
import { dataOf, marketApiForFile, seedBinanceBtcTakerFees, seedBtcSettlements, type Json, type MarketApi } from "./helpers/market-api";
import { SANDBOX_EDGE_CASES } from "@/lib/market/sandbox/edge-cases";

const HOUR = 3_600_000;
const api = marketApiForFile();
let liveKey: string;
let testKey: string;
let otherUserKey: string;
let noSimulationsKey: string;

beforeAll(async () => {
  const db = api.db;
  const user = await createUser(db, "desk");
  liveKey = (await createKeyFor(db, user.id)).secret;
  testKey = (await createKeyFor(db, user.id, { mode: "test" })).secret;
  otherUserKey = (await createKeyFor(db, (await createUser(db, "pro")).id)).secret;
  noSimulationsKey = (await createKeyFor(db, user.id, { permissions: ["opportunities:read", "portfolio:read", "write"] })).secret;

  // Binance states its taker fee in the latest round; Hyperliquid's is unknown (the default applies).
  await seedBinanceBtcTakerFees(db, [
    { takerFee: 0.0009, observedAt: new Date(Date.now() - 2 * HOUR) },
    { takerFee: 0.0004, observedAt: new Date(Date.now() - HOUR) },
  ]);

  // Settlements every 8h (binance) and every hour (hyperliquid) for 4 days, half an hour off the
  // clock so a run a few seconds later replays the same ones: 9 and 72 within the last 3 days.
  const start = Date.now() - HOUR / 2;
  await seedBtcSettlements(db, Array.from({ length: 96 }, (_, k) => new Date(start - k * HOUR)));
});

const send: MarketApi["send"] = (...args) => api.send(...args);
async function simulate(body: unknown, key = liveKey) {
  const { status, envelope, headers } = await send("POST", "/v1/simulations", key, JSON.stringify(body));
  expect(status, JSON.stringify(envelope)).toBe(201);
  if (envelope.kind !== "success") throw new Error("expected success");
  // Every creation names where to read it back.
  expect(headers.get("location")).toBe(`/v1/simulations/${(envelope.data as Json).id}`);
  return { data: envelope.data as Json, meta: envelope.meta };
}
async function read(path: string, key = liveKey) {
  return dataOf(await send("GET", path, key), 200);
}
const stored = () => api.db.simulation.count();

describe("POST /v1/simulations", () => {
  it("projects an opportunity at current rates, with each venue's interval and taker fee, and stores it", async () => {
    const { data, meta } = await simulate({ opportunity_id: "BTC-binance-hyperliquid", notional_usd: 10_000, holding_days: 2 });
    expect(meta.mode).toBe("live");
    // Long 6 × −0.0001 × 10 000 = −6; short 48 × 0.00005 × 10 000 = 24.
    expect(data.long).toMatchObject({ exchange: "binance", settlements: 6, funding_income_usd: -6, taker_fee: 0.0004 });
    expect(data.short).toMatchObject({ exchange: "hyperliquid", settlements: 48, funding_income_usd: 24, taker_fee: 0.0006 });
    // Fees 2 × 10 000 × (0.0004 latest binance fee + 0.0006 default) = 20; net −2; 9 $/day pays 20 in 2.2222 days.
    expect(data).toMatchObject({
      mode: "projected",
      opportunity_id: "BTC-binance-hyperliquid",
      symbol: "BTC",
      notional_usd: 10_000,
      holding_days: 2,
      funding_income_usd: 18,
      fees_usd: 20,
      slippage_usd: 0,
      net_pnl_usd: -2,
      net_apr: -3.65,
      break_even_days: 2.2222,
      fee_bps: null,
      slippage_bps: 0,
      daily: null,
    });
    expect(await read(`/v1/simulations/${data.id}`)).toEqual(data);
  });

  it("replays stored settlements for explicit legs over the last holding_days days", async () => {
    const { data } = await simulate({
      long: { exchange: "binance", symbol: "btc" },
      short: { exchange: "hyperliquid", symbol: "BTC" },
      notional_usd: 10_000,
      holding_days: 3,
      fee_bps: 2,
      slippage_bps: 1,
      mode: "historical",
    });
    expect(data.long).toMatchObject({ settlements: 9, funding_income_usd: -9, funding_rate: null, funding_interval_hours: 8 });
    expect(data.short).toMatchObject({ settlements: 72, funding_income_usd: 36, funding_interval_hours: 1 });
    // Fees 4 × 10 000 × 0.0002 = 8, slippage 4 × 10 000 × 0.0001 = 4; net 27 − 12 = 15.
    expect(data).toMatchObject({ opportunity_id: null, symbol: "BTC", funding_income_usd: 27, fees_usd: 8, slippage_usd: 4, net_pnl_usd: 15 });
    expect(data.net_apr).toBeCloseTo((15 / 10_000) * (365 / 3) * 100, 5);
    expect(data.daily).toHaveLength(3);
    expect(data.daily.at(-1)).toMatchObject({ funding_income_usd: 27, net_pnl_usd: 15 });
    expect(data.paid_share).toBeCloseTo(72 / 81, 6);
    expect(data.worst_drawdown_usd).toBeGreaterThanOrEqual(6);
    expect(Date.parse(data.to) - Date.parse(data.from)).toBe(3 * 86_400_000);
  });

  describe("refuses bad input with a 400 naming the field, storing nothing", () => {
    const valid = { opportunity_id: "BTC-binance-hyperliquid", notional_usd: 1000, holding_days: 7 };
    const legs = { long: { exchange: "binance", symbol: "BTC" }, short: { exchange: "hyperliquid", symbol: "BTC" } };
    it.each([
      ["a negative notional", { ...valid, notional_usd: -5 }, "notional_usd"],
      ["a huge notional", { ...valid, notional_usd: 100_000_001 }, "notional_usd"],
      ["a notional as text", { ...valid, notional_usd: "1000" }, "notional_usd"],
      ["holding_days 0", { ...valid, holding_days: 0 }, "holding_days"],
      ["holding_days 366", { ...valid, holding_days: 366 }, "holding_days"],
      ["fractional holding_days", { ...valid, holding_days: 1.5 }, "holding_days"],
      ["fee_bps over 1000", { ...valid, fee_bps: 1001 }, "fee_bps"],
      ["negative slippage_bps", { ...valid, slippage_bps: -1 }, "slippage_bps"],
      ["an unknown mode", { ...valid, mode: "optimistic" }, "mode"],
      ["an unknown field, named", { ...valid, stop_loss: 3 }, "stop_loss"],
      ["an unknown opportunity", { ...valid, opportunity_id: "DOGE-binance-okx" }, "opportunity_id"],
      ["both an opportunity and legs", { ...valid, ...legs }, "opportunity_id"],
      ["neither an opportunity nor legs", { notional_usd: 1000, holding_days: 7 }, "long"],
      ["legs on one exchange", { ...legs, short: { exchange: "binance", symbol: "BTC" }, notional_usd: 1000, holding_days: 7 }, "short.exchange"],
      ["legs on two assets", { ...legs, short: { exchange: "hyperliquid", symbol: "ETH" }, notional_usd: 1000, holding_days: 7 }, "short.symbol"],
      ["an unknown exchange", { ...legs, long: { exchange: "ftx", symbol: "BTC" }, notional_usd: 1000, holding_days: 7 }, "long.exchange"],
      ["a leg without a current market", { ...legs, long: { exchange: "okx", symbol: "BTC" }, notional_usd: 1000, holding_days: 7 }, "long.exchange"],
      ["a JSON array", [valid], "body"],
    ])("%s", async (_, body, field) => {
      const before = await stored();
      const { status, envelope } = await send("POST", "/v1/simulations", liveKey, JSON.stringify(body));
      expect(status).toBe(400);
      if (envelope.kind !== "error") throw new Error("expected an error");
      expect(envelope.error.code).toBe("VALIDATION_ERROR");
      expect(envelope.error.details?.map((d) => d.field), JSON.stringify(envelope.error)).toContain(field);
      expect(await stored()).toBe(before);
    });

    it.each([
      ["malformed JSON", '{"notional_usd": 1000,', "application/json", "body"],
      ["the wrong content type", JSON.stringify(valid), "text/plain", "content-type"],
      ["a body over 64 KB", JSON.stringify({ ...valid, opportunity_id: "x".repeat(MAX_BODY_BYTES) }), "application/json", "body"],
      ["an empty body", "", "application/json", "body"],
    ])("%s", async (_, body, contentType, field) => {
      const before = await stored();
      const { status, envelope } = await send("POST", "/v1/simulations", liveKey, body, { contentType });
      expect(status).toBe(400);
      if (envelope.kind !== "error") throw new Error("expected an error");
      expect(envelope.error).toMatchObject({ code: "VALIDATION_ERROR", details: [{ field }] });
      expect(await stored()).toBe(before);
    });
  });

  it("refuses a key without simulations:read with 403 before reading the body, storing nothing", async () => {
    const before = await stored();
    const body = JSON.stringify({ opportunity_id: "BTC-binance-hyperliquid", notional_usd: 1000, holding_days: 7 });
    for (const [method, path, sent] of [
      ["POST", "/v1/simulations", body],
      ["POST", "/v1/simulations", "{broken"],
      ["GET", "/v1/simulations", undefined],
      ["GET", "/v1/simulations/whatever", undefined],
    ] as const) {
      const { status, envelope } = await send(method, path, noSimulationsKey, sent);
      expect(status, `${method} ${path}`).toBe(403);
      expect(envelope.kind === "error" && envelope.error.code).toBe("FORBIDDEN");
    }
    expect(await stored()).toBe(before);
  });
});

describe("test keys", () => {
  it("simulate over the sandbox, and live and test simulations never see each other", async () => {
    const sandbox = await read("/v1/opportunities?limit=1", testKey);
    const id = sandbox.items[0].id as string;
    const { data: projected, meta } = await simulate({ opportunity_id: id, notional_usd: 5000, holding_days: 7 }, testKey);
    expect(meta.mode).toBe("test");
    expect(projected.opportunity_id).toBe(id);
    const { data: historical } = await simulate({ opportunity_id: id, notional_usd: 5000, holding_days: 7, mode: "historical" }, testKey);
    expect(historical.long.settlements + historical.short.settlements).toBeGreaterThan(0);
    expect(historical.daily).toHaveLength(7);

    // The live-only opportunity is not in the sandbox.
    const { status } = await send("POST", "/v1/simulations", testKey, JSON.stringify({ opportunity_id: "LIVEONLY-binance-bybit", notional_usd: 1, holding_days: 1 }));
    expect(status).toBe(400);

    const testIds = (await read("/v1/simulations?limit=100", testKey)).items.map((s: Json) => s.id);
    const liveIds = (await read("/v1/simulations?limit=100")).items.map((s: Json) => s.id);
    expect(testIds).toEqual([historical.id, projected.id]);
    expect(liveIds.length).toBeGreaterThan(0);
    expect(liveIds.filter((x: string) => testIds.includes(x))).toEqual([]);
    expect((await send("GET", `/v1/simulations/${projected.id}`, liveKey)).status).toBe(404);
    expect((await send("GET", `/v1/simulations/${liveIds[0]}`, testKey)).status).toBe(404);
  });
});

describe("carry opportunities", () => {
  it("simulate held spot against the perpetual's funding, and borrowed spot at its rate, projected and historical", async () => {
    // Each perpetual not on the sandbox's stale venue, which settles nothing (the top item's can be).
    const settling = async (type: string) =>
      ((await read(`/v1/carry-opportunities?type=${type}&limit=100`, testKey)).items as Json[]).find((item) => item.perp.exchange !== SANDBOX_EDGE_CASES.staleVenue)!;
    const held = await settling("spot_perp");
    const { data: projected } = await simulate({ opportunity_id: held.id, notional_usd: 10_000, holding_days: 7 }, testKey);
    // The spot side is the long leg and earns nothing; the perpetual settles on its own interval.
    expect(projected.long).toMatchObject({ exchange: held.spot.exchange, market: held.spot.market, funding_rate: 0, funding_income_usd: 0 });
    expect(projected.short).toMatchObject({ exchange: held.perp.exchange, market: held.perp.market, funding_rate: held.perp.funding_rate });
    expect(projected.short.settlements).toBe(Math.floor((7 * 24) / held.perp.funding_interval_hours));
    const { data: historical } = await simulate({ opportunity_id: held.id, notional_usd: 10_000, holding_days: 7, mode: "historical" }, testKey);
    expect(historical.long.settlements).toBe(0);
    expect(historical.short.settlements).toBeGreaterThan(0);

    const borrowed = await settling("perp_spot");
    const { data: interest } = await simulate({ opportunity_id: borrowed.id, notional_usd: 10_000, holding_days: 7 }, testKey);
    // 168 hours of borrow_apr on 10,000 USD, charged to the short spot side.
    expect(interest.short).toMatchObject({ exchange: borrowed.spot.exchange, funding_interval_hours: 1, settlements: 168 });
    expect(interest.short.funding_income_usd).toBeCloseTo((-10_000 * borrowed.borrow_apr * 168) / 100 / 8760, 1);

    // Historical: the perpetual's settlements on the long side, and each of the 168 hours' stored
    // borrow rate charged to the short spot side, as the sandbox keeps 7 days of both.
    const { data: replayed } = await simulate({ opportunity_id: borrowed.id, notional_usd: 10_000, holding_days: 7, mode: "historical" }, testKey);
    expect(replayed.long).toMatchObject({ exchange: borrowed.perp.exchange, market: borrowed.perp.market, funding_rate: null });
    expect(replayed.long.settlements).toBeGreaterThan(0);
    expect(replayed.short).toMatchObject({ exchange: borrowed.spot.exchange, market: borrowed.spot.market, funding_rate: null, funding_interval_hours: 1, settlements: 168 });
    // The sandbox lends at up to 0.002 % an hour: 168 hours of it cost between 0 and 33.6 USD on 10,000.
    expect(replayed.short.funding_income_usd).toBeLessThan(0);
    expect(replayed.short.funding_income_usd).toBeGreaterThanOrEqual(-33.6);
    expect(replayed.funding_income_usd).toBeCloseTo(replayed.long.funding_income_usd + replayed.short.funding_income_usd, 1);

    const refused = async (body: Json, field: string) => {
      const { status, envelope } = await send("POST", "/v1/simulations", testKey, JSON.stringify(body));
      expect(status).toBe(400);
      expect(JSON.stringify(envelope)).toContain(field);
    };
    await refused({ opportunity_id: held.id, notional_usd: 10_000, holding_days: 7, costs: "order_books" }, "costs");
    await refused({ opportunity_id: "BTC-spot_perp-okx-nowhere", notional_usd: 10_000, holding_days: 7 }, "opportunity_id");
  });
});

describe("carry opportunities on live data", () => {
  it("replay a perp_spot's perpetual settlements and its spot venue's stored borrow rates, hours not stored charging nothing", async () => {
    const now = Date.now();
    await seedLiveCarry(api.db, new Date(now - 60_000));
    api.services.carryPublished();
    // Long bybit's ETH perpetual, short ETH borrowed on binance.
    const id = "ETH-perp_spot-bybit-binance";
    const item = (await read(`/v1/carry-opportunities/${id}`)) as Json;
    // Three settlements of −0.02 % in the last day: the long collects 2 USD on 10,000 each.
    await api.db.fundingRate.createMany({
      data: [0, 1, 2].map((k) => ({ exchange: "bybit", market: item.perp.market, base: "ETH", time: new Date(now - HOUR / 2 - k * 8 * HOUR), rate: -0.0002, intervalHours: 8, source: "observed" })),
    });
    // Binance's ETH borrow rate stored for the last 24 hours but hour 5, at 8.76 % a year (0.1 USD
    // an hour on 10,000), and once 3 days before, outside the day replayed.
    const thisHour = Math.floor(now / HOUR) * HOUR;
    const hours = [...Array.from({ length: 24 }, (_, h) => thisHour - (24 - h) * HOUR).filter((_, h) => h !== 5), thisHour - 72 * HOUR];
    await api.db.borrowRate.createMany({
      data: hours.map((time) => ({ exchange: "binance", asset: "ETH", time: new Date(time), rate: 0.0000024, period: "day", aprPct: 8.76, borrowable: 50, source: "test", observedAt: new Date(time + 60_000) })),
    });
    const { data } = await simulate({ opportunity_id: id, notional_usd: 10_000, holding_days: 1, mode: "historical" });
    expect(data.long).toMatchObject({ exchange: "bybit", settlements: 3, funding_income_usd: 6 });
    expect(data.short).toMatchObject({ exchange: "binance", market: "ETH/USDT", funding_interval_hours: 1, settlements: 23, funding_income_usd: -2.3 });
    expect(data.funding_income_usd).toBe(3.7);

    // Binance lends BTC too, but no BTC borrow rate is stored: as for a perpetual without settlements, nothing is charged.
    const { data: unstored } = await simulate({ opportunity_id: "BTC-perp_spot-binance-binance", notional_usd: 10_000, holding_days: 1, mode: "historical" });
    expect(unstored.short).toMatchObject({ exchange: "binance", settlements: 0, funding_income_usd: 0 });
  });
});

describe("GET /v1/simulations", () => {
  it("lists the caller's simulations newest first, paged", async () => {
    const user = await createUser(api.db, "pro");
    const key = (await createKeyFor(api.db, user.id)).secret;
    const ids = [];
    for (const days of [1, 2, 3]) ids.push((await simulate({ opportunity_id: "ETH-okx-gate", notional_usd: 100, holding_days: days }, key)).data.id);
    const first = await read("/v1/simulations?limit=2", key);
    expect(first).toMatchObject({ total: 3, limit: 2, offset: 0, has_more: true });
    expect(first.items.map((s: Json) => s.holding_days)).toEqual([3, 2]);
    const second = await read("/v1/simulations?limit=2&offset=2", key);
    expect(second).toMatchObject({ total: 3, has_more: false });
    expect(second.items.map((s: Json) => s.id)).toEqual([ids[0]]);
    expect((await send("GET", "/v1/simulations?limit=101", key)).status).toBe(400);
    expect((await send("GET", "/v1/simulations?sort=old", key)).status).toBe(400);
  });

  it("answers 404 for another user's simulation and for an unknown id", async () => {
    const { data } = await simulate({ opportunity_id: "ETH-okx-gate", notional_usd: 100, holding_days: 1 });
    for (const [key, id] of [
      [otherUserKey, data.id],
      [liveKey, "does-not-exist"],
      [liveKey, "a%00b"], // no row can have it, and PostgreSQL would choke on the NUL byte
    ]) {
      const { status, envelope } = await send("GET", `/v1/simulations/${id}`, key!);
      expect(status).toBe(404);
      expect(envelope.kind === "error" && envelope.error.code).toBe("NOT_FOUND");
    }
    expect((await read("/v1/simulations", otherUserKey)).total).toBe(0);
  });
});
