import { beforeAll, describe, expect, it, vi } from "vitest";
import { MAX_BODY_BYTES } from "@/lib/api/read-json";
import { actorFromSession } from "@/lib/actor";
import type { AppServices } from "@/lib/app-services";
import { closePosition, updatePosition } from "@/lib/portfolio/positions";
import { createKeyFor, createUser } from "@/tests/support/api-fixtures";
import { dataOf, errorOf, marketApiForFile, seedBinanceBtcTakerFees, seedBtcSettlements, type Json, type MarketApi } from "./helpers/market-api";

const HOUR = 3_600_000;
// Positions in the accrual tests open here: 48 h ago on a whole hour, so the settlements below are fixed.
const T0 = Math.floor(Date.now() / HOUR) * HOUR - 48 * HOUR;
const api = marketApiForFile();
let deskUserId: string;
let liveKey: string;
let testKey: string;
let readOnlyDeskKey: string;
let proKey: string;
let otherUserKey: string;

beforeAll(async () => {
  const db = api.db;
  const desk = await createUser(db, "desk");
  deskUserId = desk.id;
  liveKey = (await createKeyFor(db, desk.id)).secret;
  testKey = (await createKeyFor(db, desk.id, { mode: "test" })).secret;
  readOnlyDeskKey = (await createKeyFor(db, desk.id, { permissions: ["opportunities:read", "simulations:read", "portfolio:read"] })).secret;
  proKey = (await createKeyFor(db, (await createUser(db, "pro")).id)).secret;
  otherUserKey = (await createKeyFor(db, (await createUser(db, "desk")).id)).secret;

  // Binance states a 0.04 % taker fee; Hyperliquid's is unknown, so the 0.06 % default applies.
  await seedBinanceBtcTakerFees(db, [{ takerFee: 0.0004, observedAt: new Date(Date.now() - HOUR) }]);
  // From T0 to T0 + 40 h: hyperliquid settles hourly (41 rows), binance every 8 h (6 rows).
  await seedBtcSettlements(db, Array.from({ length: 41 }, (_, k) => new Date(T0 + k * HOUR)));
});

const send: MarketApi["send"] = (...args) => api.send(...args);
async function open(body: unknown, key = liveKey) {
  const response = await send("POST", "/v1/portfolio/positions", key, JSON.stringify(body));
  const position = dataOf(response, 201);
  // Every creation names where to read it back.
  expect(response.headers.get("location")).toBe(`/v1/portfolio/positions/${position.id}`);
  return position;
}
async function read(path: string, key = liveKey) {
  return dataOf(await send("GET", path, key), 200);
}
const stored = () => api.db.position.count();
const opened = new Date(T0).toISOString();

describe("POST /v1/portfolio/positions", () => {
  it("opens a position from an opportunity and accrues the stored settlements since opened_at", async () => {
    const position = await open({ opportunity_id: "BTC-binance-hyperliquid", notional_usd: 10_000, note: "first", opened_at: opened });
    expect(position).toMatchObject({
      status: "open",
      symbol: "BTC",
      long: { exchange: "binance", market: "BTC/USDT:USDT" },
      short: { exchange: "hyperliquid", market: "BTC/USDC:USDC" },
      notional_usd: 10_000,
      opened_at: opened,
      closed_at: null,
      entry_apr: 40,
      current_apr: 40,
      note: "first",
    });
    // The settlements at T0 itself are not counted. Long: 5 × −0.0001 × 10 000 = −5; short: 40 × 0.00005 × 10 000 = 20.
    // Fees: 2 × 10 000 × (0.0004 + 0.0006) = 20; net 15 − 20 = −5.
    expect(position.accrual).toMatchObject({
      long: { settlements: 5, funding_income_usd: -5, taker_fee: 0.0004 },
      short: { settlements: 40, funding_income_usd: 20, taker_fee: 0.0006 },
      funding_income_usd: 15,
      fees_usd: 20,
      net_pnl_usd: -5,
    });
    const again = await read(`/v1/portfolio/positions/${position.id}`);
    expect({ ...again, accrual: { ...again.accrual, as_of: null } }).toEqual({ ...position, accrual: { ...position.accrual, as_of: null } });
  });

  it("opens a position from explicit legs with the legs' gross APR as entry_apr, opened now by default", async () => {
    const position = await open({ long: { exchange: "binance", symbol: "btc" }, short: { exchange: "hyperliquid", symbol: "BTC" }, notional_usd: 500 });
    // (0.00005 × 8760 / 1 − 0.0001 × 8760 / 8) × 100 = 43.8 − 10.95 = 32.85.
    expect(position.entry_apr).toBeCloseTo(32.85, 6);
    expect(position.current_apr).toBe(40);
    expect(position.note).toBeNull();
    expect(Date.now() - Date.parse(position.opened_at)).toBeLessThan(60_000);
    expect(position.accrual).toMatchObject({ funding_income_usd: 0, fees_usd: 1, net_pnl_usd: -1 });
  });

  describe("refuses bad input with a 400 naming the field, storing nothing", () => {
    const valid = { opportunity_id: "BTC-binance-hyperliquid", notional_usd: 1000 };
    const legs = { long: { exchange: "binance", symbol: "BTC" }, short: { exchange: "hyperliquid", symbol: "BTC" } };
    it.each([
      ["a negative notional", { ...valid, notional_usd: -5 }, "notional_usd"],
      ["a huge notional", { ...valid, notional_usd: 100_000_001 }, "notional_usd"],
      ["no notional", { opportunity_id: valid.opportunity_id }, "notional_usd"],
      ["a note over 500 characters", { ...valid, note: "x".repeat(501) }, "note"],
      ["opened_at in the future", { ...valid, opened_at: new Date(Date.now() + HOUR).toISOString() }, "opened_at"],
      ["opened_at not a date", { ...valid, opened_at: "yesterday" }, "opened_at"],
      // JavaScript parses year 0000, PostgreSQL refuses it: a 400, not the database's 500.
      ["opened_at in year 0000", { ...valid, opened_at: "0000-01-01T00:00:00Z" }, "opened_at"],
      ["a note with a NUL character", { ...valid, note: "a\u0000b" }, "note"],
      ["an unknown field, named", { ...valid, leverage: 3 }, "leverage"],
      ["an unknown opportunity", { ...valid, opportunity_id: "DOGE-binance-okx" }, "opportunity_id"],
      ["both an opportunity and legs", { ...valid, ...legs }, "opportunity_id"],
      ["legs on one exchange", { ...legs, short: { exchange: "binance", symbol: "BTC" }, notional_usd: 1000 }, "short.exchange"],
      ["a leg without a current market", { ...legs, long: { exchange: "okx", symbol: "BTC" }, notional_usd: 1000 }, "long.exchange"],
    ])("%s", async (_, body, field) => {
      const before = await stored();
      const error = errorOf(await send("POST", "/v1/portfolio/positions", liveKey, JSON.stringify(body)), 400);
      expect(error.code).toBe("VALIDATION_ERROR");
      expect(error.details?.map((d) => d.field), JSON.stringify(error)).toContain(field);
      expect(await stored()).toBe(before);
    });

    it.each([
      ["malformed JSON", '{"notional_usd": 1000,', "application/json", "body"],
      ["the wrong content type", JSON.stringify(valid), "text/plain", "content-type"],
      ["a body over 64 KB", JSON.stringify({ ...valid, note: "x".repeat(MAX_BODY_BYTES) }), "application/json", "body"],
    ])("%s", async (_, body, contentType, field) => {
      const before = await stored();
      const error = errorOf(await send("POST", "/v1/portfolio/positions", liveKey, body, { contentType }), 400);
      expect(error).toMatchObject({ code: "VALIDATION_ERROR", details: [{ field }] });
      expect(await stored()).toBe(before);
    });

    it("stops reading a chunked body without a length as soon as it passes 64 KB", async () => {
      let sent = 0;
      const endless = new ReadableStream<Uint8Array>({
        pull(controller) {
          sent += 16 * 1024;
          controller.enqueue(new Uint8Array(16 * 1024).fill(0x20));
        },
      });
      const headers = { Authorization: `Bearer ${liveKey}`, "Content-Type": "application/json" };
      const request = new Request("http://localhost/v1/portfolio/positions", { method: "POST", headers, body: endless, duplex: "half" } as RequestInit);
      const response = await api.app.fetch(request);
      expect(response.status).toBe(400);
      expect((await response.json()).error.details).toEqual([{ field: "body", message: `Body must be at most ${MAX_BODY_BYTES} bytes` }]);
      expect(sent).toBeLessThan(MAX_BODY_BYTES + 4 * 16 * 1024); // a few chunks of read-ahead, not the stream
    });
  });
});

describe("PATCH, close and DELETE", () => {
  it("changes note and notional of an open position, the accrual following the notional", async () => {
    const position = await open({ opportunity_id: "BTC-binance-hyperliquid", notional_usd: 10_000, note: "n", opened_at: opened });
    const path = `/v1/portfolio/positions/${position.id}`;
    const changed = dataOf(await send("PATCH", path, liveKey, JSON.stringify({ notional_usd: 20_000 })), 200);
    expect(changed).toMatchObject({ notional_usd: 20_000, note: "n", accrual: { funding_income_usd: 30, fees_usd: 40, net_pnl_usd: -10 } });
    expect(dataOf(await send("PATCH", path, liveKey, JSON.stringify({ note: null })), 200).note).toBeNull();
    expect(errorOf(await send("PATCH", path, liveKey, JSON.stringify({})), 400).details?.[0]?.field).toBe("body");
    expect(errorOf(await send("PATCH", path, liveKey, JSON.stringify({ notional_usd: 0 })), 400).details?.[0]?.field).toBe("notional_usd");
    expect(errorOf(await send("PATCH", path, liveKey, JSON.stringify({ note: "x".repeat(501) })), 400).details?.[0]?.field).toBe("note");
    expect(errorOf(await send("PATCH", "/v1/portfolio/positions/nope", liveKey, JSON.stringify({ note: "x" })), 404).code).toBe("NOT_FOUND");
    expect(errorOf(await send("PATCH", path, liveKey, JSON.stringify({ note: "x\u0000" })), 400).details?.[0]?.field).toBe("note");
    // An id no row can have (a NUL byte would fail in PostgreSQL) is simply not found, for every method.
    for (const [method, suffix] of [["GET", ""], ["PATCH", ""], ["DELETE", ""], ["POST", "/close"]] as const) {
      const body = method === "PATCH" ? JSON.stringify({ note: "x" }) : undefined;
      expect(errorOf(await send(method, `/v1/portfolio/positions/a%00b${suffix}`, liveKey, body), 404).code).toBe("NOT_FOUND");
    }
  });

  it("closes a position, realising its P&L; a closed position cannot be closed again or changed, but can be deleted", async () => {
    const position = await open({ opportunity_id: "BTC-binance-hyperliquid", notional_usd: 10_000, opened_at: opened });
    const path = `/v1/portfolio/positions/${position.id}`;
    const closed = dataOf(await send("POST", `${path}/close`, liveKey), 200);
    expect(closed).toMatchObject({ status: "closed", current_apr: null, accrual: { funding_income_usd: 15, fees_usd: 20, net_pnl_usd: -5 } });
    expect(Date.parse(closed.closed_at)).toBeLessThanOrEqual(Date.now());
    expect(closed.accrual.as_of).toBe(closed.closed_at);
    expect(await read(path)).toEqual(closed);

    expect(errorOf(await send("POST", `${path}/close`, liveKey), 400).details?.[0]?.field).toBe("status");
    expect(errorOf(await send("PATCH", path, liveKey, JSON.stringify({ note: "late" })), 400).details?.[0]?.field).toBe("status");

    expect(dataOf(await send("DELETE", path, liveKey), 200)).toEqual({ id: position.id, deleted: true });
    expect(errorOf(await send("GET", path, liveKey), 404).code).toBe("NOT_FOUND");
    expect(errorOf(await send("DELETE", path, liveKey), 404).code).toBe("NOT_FOUND");
    expect(errorOf(await send("POST", "/v1/portfolio/positions/nope/close", liveKey), 404).code).toBe("NOT_FOUND");
  });

  it("answers a change or close whose position a racing request deleted with 404, never a 500", async () => {
    // Deterministic race: the database deletes the position right after the conditional write.
    const racing = (id: string): AppServices => ({
      ...api.services,
      db: async () =>
        new Proxy(api.db, {
          get: (db, name) =>
            name !== "position"
              ? Reflect.get(db, name)
              : new Proxy(db.position, {
                  get: (table, method) =>
                    method !== "updateMany"
                      ? Reflect.get(table, method)
                      : async (args: Parameters<typeof table.updateMany>[0]) => {
                          const result = await table.updateMany(args);
                          await table.delete({ where: { id } });
                          return result;
                        },
                }),
        }),
    });
    const actor = actorFromSession({ id: deskUserId, tier: "desk" });
    for (const act of [
      (id: string) => updatePosition(racing(id), actor, id, { note: "late" }),
      (id: string) => closePosition(racing(id), actor, id),
    ]) {
      const { id } = await open({ opportunity_id: "BTC-binance-hyperliquid", notional_usd: 1_000 });
      await expect(act(id)).rejects.toMatchObject({ code: "NOT_FOUND", status: 404 });
    }
  });
});

describe("GET /v1/portfolio", () => {
  it("lists open positions first with totals over all of them, paged, and filters by status", async () => {
    const user = await createUser(api.db, "desk");
    const key = (await createKeyFor(api.db, user.id)).secret;
    const a = await open({ opportunity_id: "BTC-binance-hyperliquid", notional_usd: 10_000, opened_at: opened }, key);
    const b = await open({ opportunity_id: "BTC-binance-hyperliquid", notional_usd: 10_000, opened_at: new Date(T0 + HOUR / 2).toISOString() }, key);
    const c = await open({ opportunity_id: "ETH-okx-gate", notional_usd: 1000 }, key);
    dataOf(await send("POST", `/v1/portfolio/positions/${a.id}/close`, key), 200);

    const all = await read("/v1/portfolio", key);
    expect(all).toMatchObject({ total: 3, limit: 50, offset: 0, has_more: false });
    expect(all.items.map((p: Json) => p.id)).toEqual([c.id, b.id, a.id]);
    // a (closed): −5. b (open, from T0 + 30 min): same settlements as a, −5. c: fees 2 × 1000 × 0.0012 = 2.4, −2.4.
    expect(all.totals).toEqual({
      positions: 3,
      open_positions: 2,
      open_notional_usd: 11_000,
      funding_income_usd: 30,
      fees_usd: 42.4,
      unrealised_pnl_usd: -7.4,
      realised_pnl_usd: -5,
      net_pnl_usd: -12.4,
    });
    const page = await read("/v1/portfolio?limit=1&offset=1", key);
    expect(page).toMatchObject({ total: 3, limit: 1, offset: 1, has_more: true, totals: { positions: 3 } });
    expect(page.items.map((p: Json) => p.id)).toEqual([b.id]);
    const closedOnly = await read("/v1/portfolio?status=closed", key);
    expect(closedOnly.items.map((p: Json) => p.id)).toEqual([a.id]);
    expect(closedOnly.totals).toMatchObject({ positions: 1, realised_pnl_usd: -5, unrealised_pnl_usd: 0 });
    for (const query of ["limit=101", "offset=-1", "status=pending", "sort=old"]) {
      expect((await send("GET", `/v1/portfolio?${query}`, key)).status, query).toBe(400);
    }
  });

  it("reads every open position's legs in one batch, not four queries per position", async () => {
    const user = await createUser(api.db, "desk");
    const key = (await createKeyFor(api.db, user.id)).secret;
    for (let i = 0; i < 6; i++) await open({ opportunity_id: i % 2 ? "ETH-okx-gate" : "BTC-binance-hyperliquid", notional_usd: 1000 + i, opened_at: opened }, key);
    const market = api.services.market("live");
    const batch = vi.spyOn(market, "legHistories");
    const perLeg = [vi.spyOn(market, "settlements"), vi.spyOn(market, "takerFee")];
    try {
      const listed = await read("/v1/portfolio", key);
      expect(listed.total).toBe(6);
      expect(batch).toHaveBeenCalledTimes(1);
      expect(batch.mock.calls[0]?.[0]).toHaveLength(12);
      for (const spy of perLeg) expect(spy).not.toHaveBeenCalled();
      // The batch answers what the per-leg reads would.
      const [requests, to] = batch.mock.calls[0]!;
      const answers = await batch.mock.results[0]!.value;
      for (const [i, request] of requests.entries()) {
        expect(answers[i]).toEqual({
          takerFee: await market.takerFee(request.leg, to),
          settlements: await market.settlements(request.symbol, request.leg, request.from, to),
        });
      }
    } finally {
      batch.mockRestore();
      for (const spy of perLeg) spy.mockRestore();
    }
  });

  it("answers 404 for another user's position and shows them nothing", async () => {
    const position = await open({ opportunity_id: "ETH-okx-gate", notional_usd: 100 });
    const path = `/v1/portfolio/positions/${position.id}`;
    for (const [method, suffix, body] of [
      ["GET", "", undefined],
      ["PATCH", "", JSON.stringify({ note: "mine" })],
      ["POST", "/close", undefined],
      ["DELETE", "", undefined],
    ] as const) {
      expect(errorOf(await send(method, `${path}${suffix}`, otherUserKey, body), 404).code, `${method} ${suffix}`).toBe("NOT_FOUND");
    }
    expect((await read("/v1/portfolio", otherUserKey)).total).toBe(0);
    expect((await read(path)).status).toBe("open");
  });
});

describe("permissions", () => {
  it("lets a Pro key and a read-only Desk key read but not write (403), and a Desk key write", async () => {
    const position = await open({ opportunity_id: "ETH-okx-gate", notional_usd: 100 });
    const path = `/v1/portfolio/positions/${position.id}`;
    const before = await stored();
    const writes = [
      ["POST", "/v1/portfolio/positions", JSON.stringify({ opportunity_id: "ETH-okx-gate", notional_usd: 100 })],
      ["POST", "/v1/portfolio/positions", "{broken"],
      ["PATCH", path, JSON.stringify({ note: "x" })],
      ["POST", `${path}/close`, undefined],
      ["DELETE", path, undefined],
    ] as const;
    for (const key of [proKey, readOnlyDeskKey]) {
      for (const [method, target, body] of writes) {
        expect(errorOf(await send(method, target, key, body), 403).code, `${method} ${target}`).toBe("FORBIDDEN");
      }
    }
    expect(await stored()).toBe(before);
    expect((await read(path)).note).toBeNull();
    expect((await read("/v1/portfolio", proKey)).total).toBe(0);
    expect((await read(path, readOnlyDeskKey)).id).toBe(position.id);
    const noPortfolio = (await createKeyFor(api.db, deskUserId, { permissions: ["opportunities:read", "write"] })).secret;
    expect(errorOf(await send("GET", "/v1/portfolio", noPortfolio), 403).code).toBe("FORBIDDEN");
    expect(errorOf(await send("GET", path, noPortfolio), 403).code).toBe("FORBIDDEN");
  });
});

describe("test keys", () => {
  it("keep a sandbox portfolio apart from the live one", async () => {
    const sandbox = await read("/v1/opportunities?limit=1", testKey);
    const opportunity = sandbox.items[0];
    const position = await open({ opportunity_id: opportunity.id, notional_usd: 5000, opened_at: new Date(Date.now() - 72 * HOUR).toISOString() }, testKey);
    expect(position.entry_apr).toBe(opportunity.apr);
    expect(position.accrual.long.settlements + position.accrual.short.settlements).toBeGreaterThan(0);
    const testList = await read("/v1/portfolio", testKey);
    expect(testList.items.map((p: Json) => p.id)).toEqual([position.id]);
    const liveList = await read("/v1/portfolio?limit=100");
    expect(liveList.items.map((p: Json) => p.id)).not.toContain(position.id);
    expect((await send("GET", `/v1/portfolio/positions/${position.id}`, liveKey)).status).toBe(404);
    expect((await send("GET", `/v1/portfolio/positions/${liveList.items[0].id}`, testKey)).status).toBe(404);
    // The live-only pair is not in the sandbox.
    expect((await send("POST", "/v1/portfolio/positions", testKey, JSON.stringify({ opportunity_id: "LIVEONLY-binance-bybit", notional_usd: 1 }))).status).toBe(400);
  });
});

describe("Idempotency-Key", () => {
  const body = JSON.stringify({ opportunity_id: "ETH-okx-gate", notional_usd: 250, note: "idempotent" });

  it("replays the first response for the same key and body, and refuses the key with another request (409)", async () => {
    const before = await stored();
    const first = await send("POST", "/v1/portfolio/positions", liveKey, body, { idempotencyKey: "replay-1" });
    const created = dataOf(first, 201);
    expect(first.headers.get("idempotent-replayed")).toBeNull();
    const again = await send("POST", "/v1/portfolio/positions", liveKey, body, { idempotencyKey: "replay-1" });
    expect(dataOf(again, 201)).toEqual(created);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(again.headers.get("location")).toBe(`/v1/portfolio/positions/${created.id}`);
    expect(again.envelope.meta.request_id).not.toBe(first.envelope.meta.request_id);
    expect(await stored()).toBe(before + 1);

    const other = JSON.stringify({ opportunity_id: "ETH-okx-gate", notional_usd: 251 });
    expect(errorOf(await send("POST", "/v1/portfolio/positions", liveKey, other, { idempotencyKey: "replay-1" }), 409).code).toBe("IDEMPOTENCY_CONFLICT");
    const otherPath = await send("POST", `/v1/portfolio/positions/${created.id}/close`, liveKey, undefined, { idempotencyKey: "replay-1" });
    expect(errorOf(otherPath, 409).code).toBe("IDEMPOTENCY_CONFLICT");
    expect(await stored()).toBe(before + 1);
    expect((await read(`/v1/portfolio/positions/${created.id}`)).status).toBe("open");

    // Keys are per account and mode: the same key is fresh for a test key and for another account.
    expect(dataOf(await send("POST", "/v1/portfolio/positions", otherUserKey, body, { idempotencyKey: "replay-1" }), 201).id).not.toBe(created.id);
  });

  it("replays a close, so a retried close answers its first result instead of 400", async () => {
    const position = await open({ opportunity_id: "ETH-okx-gate", notional_usd: 100 });
    const path = `/v1/portfolio/positions/${position.id}/close`;
    const first = dataOf(await send("POST", path, liveKey, undefined, { idempotencyKey: "close-1" }), 200);
    expect(dataOf(await send("POST", path, liveKey, undefined, { idempotencyKey: "close-1" }), 200)).toEqual(first);
    expect((await send("POST", path, liveKey, undefined, { idempotencyKey: "close-2" })).status).toBe(400);
  });

  it("does not store a failed request: a retry with the same key runs again", async () => {
    const bad = JSON.stringify({ opportunity_id: "DOGE-binance-okx", notional_usd: 1 });
    expect((await send("POST", "/v1/portfolio/positions", liveKey, bad, { idempotencyKey: "failed-1" })).status).toBe(400);
    expect(dataOf(await send("POST", "/v1/portfolio/positions", liveKey, body, { idempotencyKey: "failed-1" }), 201).note).toBe("idempotent");
  });

  it("frees a key whose first request died mid-way: a pending record over a minute old is taken over", async () => {
    const user = await createUser(api.db, "desk");
    const key = (await createKeyFor(api.db, user.id)).secret;
    const pending = { userId: user.id, keyMode: "LIVE" as const, key: "crashed-1" };
    const fingerprintOf = "POST /v1/portfolio/positions (a process that died before answering)";
    await api.db.idempotencyRecord.create({ data: { ...pending, fingerprint: fingerprintOf, createdAt: new Date(Date.now() - 30_000) } });
    // Half a minute old: still the first request's, so a different body is a conflict.
    expect((await send("POST", "/v1/portfolio/positions", key, body, { idempotencyKey: "crashed-1" })).status).toBe(409);
    await api.db.idempotencyRecord.update({ where: { userId_keyMode_key: pending }, data: { createdAt: new Date(Date.now() - 61_000) } });
    expect(dataOf(await send("POST", "/v1/portfolio/positions", key, body, { idempotencyKey: "crashed-1" }), 201).note).toBe("idempotent");
  });

  it("refuses a malformed key with 400", async () => {
    for (const key of ["x".repeat(256), "has space"]) {
      const error = errorOf(await send("POST", "/v1/portfolio/positions", liveKey, body, { idempotencyKey: key }), 400);
      expect(error.details?.[0]?.field).toBe("Idempotency-Key");
    }
  });

  it("creates exactly one position when 20 identical requests race with one key", async () => {
    const user = await createUser(api.db, "desk");
    const key = (await createKeyFor(api.db, user.id)).secret;
    const results = await Promise.all(
      Array.from({ length: 20 }, () => send("POST", "/v1/portfolio/positions", key, body, { idempotencyKey: "race-1" })),
    );
    const ids = new Set(results.map((r) => dataOf(r, 201).id));
    expect(ids.size).toBe(1);
    expect(await api.db.position.count({ where: { userId: user.id } })).toBe(1);
    expect(results.filter((r) => r.headers.get("idempotent-replayed") === "true")).toHaveLength(19);
  });

  it("applies to POST /v1/simulations too", async () => {
    const simulation = JSON.stringify({ opportunity_id: "ETH-okx-gate", notional_usd: 100, holding_days: 3 });
    const before = await api.db.simulation.count();
    const first = dataOf(await send("POST", "/v1/simulations", liveKey, simulation, { idempotencyKey: "sim-1" }), 201);
    expect(dataOf(await send("POST", "/v1/simulations", liveKey, simulation, { idempotencyKey: "sim-1" }), 201)).toEqual(first);
    expect(await api.db.simulation.count()).toBe(before + 1);
    expect((await send("POST", "/v1/simulations", liveKey, simulation.replace("100", "101"), { idempotencyKey: "sim-1" })).status).toBe(409);
  });
});
