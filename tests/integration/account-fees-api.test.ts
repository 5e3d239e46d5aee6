import { beforeAll, describe, expect, it } from "vitest";
import { createKeyFor, createUser } from "@/tests/support/api-fixtures";
import { actorFromSession } from "@/lib/actor";
import { dataOf, errorOf, marketApiForFile, type Json } from "./helpers/market-api";

// GET/PATCH /v1/account/fees, and the fee's effect on quotes and simulations.

const api = marketApiForFile();
let deskUserId: string;
let deskKey: string;
let deskTestKey: string;
let proKey: string;

beforeAll(async () => {
  const desk = await createUser(api.db, "desk");
  deskUserId = desk.id;
  deskKey = (await createKeyFor(api.db, desk.id)).secret;
  deskTestKey = (await createKeyFor(api.db, desk.id, { mode: "test" })).secret;
  proKey = (await createKeyFor(api.db, (await createUser(api.db, "pro")).id)).secret;
});

const patch = (body: unknown, key = deskKey) => api.send("PATCH", "/v1/account/fees", key, JSON.stringify(body));
const venue = (data: Json, exchange: string) => (data.items as Json[]).find((v) => v.exchange === exchange);

describe("/v1/account/fees", () => {
  it("lists each venue of the set with the venue's fee and none of the account's", async () => {
    const data = dataOf(await api.send("GET", "/v1/account/fees", proKey), 200);
    expect(venue(data, "binance")).toMatchObject({ account_taker_fee: null, account_fee_updated_at: null });
    const binance = venue(data, "binance")!;
    expect(binance.taker_fee).toBe(binance.venue_taker_fee);
  });

  it("lets a Desk key set and clear fees, audited, and answers every venue's fee", async () => {
    const data = dataOf(await patch({ binance: 0.0002, hyperliquid: 0 }), 200);
    expect(venue(data, "binance")).toMatchObject({ account_taker_fee: 0.0002, taker_fee: 0.0002 });
    expect(venue(data, "hyperliquid")).toMatchObject({ account_taker_fee: 0, taker_fee: 0 });
    const cleared = dataOf(await patch({ hyperliquid: null }), 200);
    expect(venue(cleared, "hyperliquid")).toMatchObject({ account_taker_fee: null });
    expect(venue(cleared, "binance")).toMatchObject({ account_taker_fee: 0.0002 });
    const audit = await api.db.auditEvent.findMany({ where: { subjectId: deskUserId, action: "fees.changed" }, orderBy: { at: "asc" } });
    expect(audit.map((a) => a.target)).toEqual(["binance=0.0002, hyperliquid=0", "hyperliquid=cleared"]);
    // The account's, not the key mode's: a test key sees the same own fee.
    expect(venue(dataOf(await api.send("GET", "/v1/account/fees", deskTestKey), 200), "binance")).toMatchObject({ account_taker_fee: 0.0002 });
  });

  it("refuses a Pro key with the usual FORBIDDEN envelope, changing nothing", async () => {
    const before = await api.db.accountVenueFee.count();
    const error = errorOf(await patch({ binance: 0.0001 }, proKey), 403);
    expect(error.code).toBe("FORBIDDEN");
    expect(await api.db.accountVenueFee.count()).toBe(before);
  });

  it.each([
    [{ binance: 0.02 }, "binance"],
    [{ binance: -0.0001 }, "binance"],
    [{ binance: "0.0004" }, "binance"],
    [{ nowhere: 0.0004 }, null],
    [{}, null],
  ])("refuses %j with a 400 VALIDATION_ERROR", async (body, field) => {
    const error = errorOf(await patch(body), 400);
    expect(error.code).toBe("VALIDATION_ERROR");
    if (field) expect((error.details as { field: string }[]).map((d) => d.field)).toContain(field);
  });
});

describe("the account's fee in quotes and simulations", () => {
  it("charges a quote's leg the account's fee, with source account", async () => {
    await patch({ binance: 0.0001, bybit: 0.0003 });
    const path = "/v1/opportunities/BTC-binance-bybit/quote?notional=10000";
    const quote = dataOf(await api.send("GET", path, deskTestKey), 200);
    const legs = [quote.long, quote.short] as Json[];
    const binance = legs.find((l) => l.exchange === "binance")!;
    expect(binance).toMatchObject({ taker_fee: 0.0001, taker_fee_source: "account" });
    // Fees are the fee on both fills' value.
    const fills = (binance.entry as Json).value_usd as number + ((binance.exit as Json).value_usd as number);
    expect(binance.fees_usd as number).toBeCloseTo(fills * 0.0001, 6);
    await patch({ binance: null, bybit: null });
    const venueQuote = dataOf(await api.send("GET", path, deskTestKey), 200);
    expect(([venueQuote.long, venueQuote.short] as Json[]).find((l) => l.exchange === "binance")).toMatchObject({ taker_fee_source: "venue_base_tier" });
  });

  it("charges a simulation's fills the account's fee", async () => {
    await patch({ binance: 0.0001, hyperliquid: 0.0002 });
    const run = await api.send("POST", "/v1/simulations", deskKey, JSON.stringify({ opportunity_id: "BTC-binance-hyperliquid", notional_usd: 10_000, holding_days: 2 }));
    const data = dataOf(run, 201);
    expect((data.long as Json).taker_fee).toBe(0.0001);
    expect((data.short as Json).taker_fee).toBe(0.0002);
    // 2 × 10 000 × (0.0001 + 0.0002) = 6.
    expect(data.fees_usd).toBeCloseTo(6, 6);
    await patch({ binance: null, hyperliquid: null });
  });
});

describe("POST /v1/simulations with costs: order_books", () => {
  const body = { opportunity_id: "BTC-binance-bybit", notional_usd: 50_000, holding_days: 3, costs: "order_books", leverage: 2 };
  const simulate = (b: unknown) => api.send("POST", "/v1/simulations", deskTestKey, JSON.stringify(b));

  it("costs projected and historical runs from the quote at that size, with the liquidation at entry", async () => {
    const quote = dataOf(await api.send("GET", "/v1/opportunities/BTC-binance-bybit/quote?notional=50000&hold_hours=72&leverage=2", deskTestKey), 200);
    for (const mode of ["projected", "historical"]) {
      const data = dataOf(await simulate({ ...body, mode }), 201);
      expect(data).toMatchObject({ costs: "order_books", fee_bps: null, slippage_bps: 0 });
      // The sandbox's books are the same all minute: the simulation's costs are the quote's.
      expect((data.fees_usd as number) + (data.slippage_usd as number)).toBeCloseTo(quote.cost_usd as number, 4);
      const entry = data.entry_quote as Json;
      expect(entry.leverage).toBe(2);
      expect((entry.long as Json).distance_pct).toBe(((quote.long as Json).liquidation as Json).distance_pct);
      expect((entry.short as Json).price).toBe(((quote.short as Json).liquidation as Json).price);
    }
  });

  it("keeps requests without it as they were: fixed costs, no entry quote", async () => {
    const data = dataOf(await simulate({ opportunity_id: "BTC-binance-bybit", notional_usd: 50_000, holding_days: 3 }), 201);
    expect(data).toMatchObject({ costs: "fixed", entry_quote: null });
  });

  it.each([
    [{ ...body, fee_bps: 5 }, "fee_bps"],
    [{ ...body, slippage_bps: 2 }, "slippage_bps"],
    [{ ...body, notional_usd: 20_000_000 }, "notional_usd"],
    [{ opportunity_id: "BTC-binance-bybit", notional_usd: 1_000, holding_days: 3, leverage: 2 }, "leverage"],
    [{ ...body, leverage: 500 }, "leverage"],
    [{ ...body, costs: "guess" }, "costs"],
  ])("refuses %j with a 400 naming the field", async (b, field) => {
    const error = errorOf(await simulate(b), 400);
    expect(error.code).toBe("VALIDATION_ERROR");
    expect((error.details as { field: string }[]).map((d) => d.field)).toContain(field);
  });

  it("refuses a size the books cannot fill, naming what they can", async () => {
    const error = errorOf(await simulate({ ...body, opportunity_id: "SBXNEG-bybit-okx", notional_usd: 5_000_000, leverage: 1 }), 400);
    expect(error.details).toEqual([{ field: "notional_usd", message: expect.stringMatching(/^The books hold only [\d.]+ USD a leg/) }]);
  });
});

describe("screenerQuotes (the screener's Size column and Quote panel)", () => {
  it("quotes each id on screen with the account's fee, and answers a row it cannot quote with its error", async () => {
    const { screenerQuotes } = await import("@/lib/screener/screener-quotes");
    await patch({ binance: 0.0001 });
    const items = await screenerQuotes(api.services, { ...actorFromSession({ id: deskUserId, tier: "desk" }), mode: "test" }, {
      ids: ["BTC-binance-bybit", "NOPE-binance-bybit"],
      notional: 25_000,
      hold_hours: 72,
      leverage: 1,
    });
    expect(items.map((i) => i.id)).toEqual(["BTC-binance-bybit", "NOPE-binance-bybit"]);
    const [quoted, missing] = items;
    if (!quoted || !("quote" in quoted)) throw new Error("expected a quote");
    expect(quoted.quote.notional_usd).toBe(25_000);
    expect(quoted.quote.long.taker_fee_source).toBe("account");
    expect(missing).toEqual({ id: "NOPE-binance-bybit", error: { code: "NOT_FOUND", message: expect.stringContaining("NOPE") } });
    await patch({ binance: null });
  });
});
