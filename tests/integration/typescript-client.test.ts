import { describe, expect, it } from "vitest";
import { FundingDataClient, FundingDataError } from "@/clients/typescript/src/index";
import { API_ROUTES } from "@/lib/api/app";
import { clientTestServerForFile } from "@/tests/support/client-test-server-for-file";

const server = clientTestServerForFile();

const client = (apiKey: string, options: ConstructorParameters<typeof FundingDataClient>[0] = {}) =>
  new FundingDataClient({ apiKey, baseUrl: server.baseUrl, retryBaseDelayMs: 10, ...options });

describe("the TypeScript client against a real server", () => {
  it("has a method for every operation of the API", () => {
    const methods = Object.getOwnPropertyNames(Object.getPrototypeOf(Object.getPrototypeOf(client("svc_sk_test_x"))));
    for (const route of API_ROUTES) expect(methods, route.operationId).toContain(route.operationId);
  });

  it("sends the key and returns the envelope", async () => {
    const body = await client(server.keys.desk).verifyKey();
    expect(body.data).toMatchObject({ valid: true, tier: "desk", mode: "live", expires_at: null });
    expect(body.meta.request_id).toMatch(/^req_[0-9A-Za-z]{24}$/);
  });

  it("calls every route with typed parameters", async () => {
    const api = client(server.keys.desk);
    const page = await api.listOpportunities({ limit: 2, min_apr: 20, sort: "apr" });
    expect(page.data.items.map((o) => o.apr)).toEqual([20, 25]);
    expect(page.data).toMatchObject({ limit: 2, offset: 0, has_more: true });
    const one = await api.getOpportunity(page.data.items[0]!.id);
    expect(one.data.id).toBe(page.data.items[0]!.id);
    expect(one.data.funding_history.long).toEqual([]);
    expect((await api.listExchanges()).data.items.length).toBeGreaterThan(0);
    const rates = await api.listFundingRates({ exchange: "binance", symbol: "BTC" });
    expect(rates.data).toMatchObject({ total: 0, items: [] });
    const sandbox = await client(server.keys.test).listFundingRates({ exchange: "binance", symbol: "BTC", limit: 5 });
    expect(sandbox.meta.mode).toBe("test");
    expect(sandbox.data.items.length).toBe(5);
    const simulation = await api.createSimulation({ opportunity_id: one.data.id, notional_usd: 1000, holding_days: 7, mode: "historical" });
    expect(simulation.data).toMatchObject({ opportunity_id: one.data.id, mode: "historical" });
    expect((await api.getSimulation(simulation.data.id)).data).toEqual(simulation.data);
    // A quote at a size, with the account's own fee once set (test keys: the sandbox's books).
    const sandboxApi = client(server.keys.test);
    const fees = await api.updateAccountFees({ binance: 0.0001 });
    expect(fees.data.items.find((v) => v.exchange === "binance")).toMatchObject({ account_taker_fee: 0.0001, taker_fee: 0.0001 });
    const quote = await sandboxApi.getOpportunityQuote("BTC-binance-bybit", { notional: 50_000, hold_hours: 24, leverage: 2 });
    expect(quote.data).toMatchObject({ opportunity_id: "BTC-binance-bybit", notional_usd: 50_000, hold_hours: 24, leverage: 2 });
    expect(quote.data.long.exchange === "binance" ? quote.data.long : quote.data.short).toMatchObject({ taker_fee: 0.0001, taker_fee_source: "account" });
    await api.updateAccountFees({ binance: null });
    expect((await api.getAccountFees()).data.items.find((v) => v.exchange === "binance")?.account_taker_fee).toBeNull();
  });

  it("asks again with If-None-Match and returns the kept body on a 304", async () => {
    const exchanges: { url: string; ifNoneMatch: string | undefined; status: number }[] = [];
    const recording: typeof fetch = async (input, init) => {
      const response = await fetch(input, init);
      const ifNoneMatch = (init?.headers as Record<string, string>)["If-None-Match"];
      exchanges.push({ url: String(input), ifNoneMatch, status: response.status });
      return response;
    };
    const api = client(server.keys.desk, { fetch: recording });
    const first = await api.listOpportunities({ limit: 3 });
    const second = await api.listOpportunities({ limit: 3 });
    expect(second).toEqual(first);
    expect(exchanges.map((e) => e.status)).toEqual([200, 304]);
    expect(exchanges[0]!.ifNoneMatch).toBeUndefined();
    expect(exchanges[1]!.ifNoneMatch).toMatch(/^"[A-Za-z0-9_-]+"$/);
    // Another URL is another answer; a client told to keep nothing never sends the header.
    await api.listOpportunities({ limit: 4 });
    expect(exchanges[2]).toMatchObject({ ifNoneMatch: undefined, status: 200 });
    const forgetful = client(server.keys.desk, { fetch: recording, conditionalCacheSize: 0 });
    await forgetful.listOpportunities({ limit: 3 });
    await forgetful.listOpportunities({ limit: 3 });
    expect(exchanges.slice(3).map((e) => [e.ifNoneMatch, e.status])).toEqual([
      [undefined, 200],
      [undefined, 200],
    ]);
  });

  it("iterates over every page of a list", async () => {
    const ids: string[] = [];
    for await (const opportunity of client(server.keys.desk).iterateOpportunities({ limit: 2 })) ids.push(opportunity.id);
    expect(ids.length).toBe(server.liveOpportunities);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it("throws typed errors with code, status and request id", async () => {
    const error = await client(server.keys.free).listOpportunities().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(FundingDataError);
    expect(error).toMatchObject({ code: "FORBIDDEN", status: 403, requestId: expect.stringMatching(/^req_/) });
    const invalid = await client(server.keys.desk)
      .listOpportunities({ limit: 1000 })
      .catch((e: unknown) => e);
    expect(invalid).toMatchObject({ code: "VALIDATION_ERROR", status: 400, details: [{ field: "limit" }] });
    const unknown = await client("svc_sk_live_nope").verifyKey().catch((e: unknown) => e);
    expect(unknown).toMatchObject({ code: "UNAUTHORIZED", status: 401 });
    const missing = await client(server.keys.desk).getOpportunity("NOPE-a-b").catch((e: unknown) => e);
    expect(missing).toMatchObject({ code: "NOT_FOUND", status: 404 });
  });

  it("waits out a 429 for retry_after seconds and then succeeds", async () => {
    const started = Date.now();
    const body = await client(server.keys.rateLimitedEveryOther).verifyKey();
    expect(body.data.valid).toBe(true);
    expect(Date.now() - started).toBeGreaterThanOrEqual(950);
  });

  it("throws RATE_LIMITED with retryAfter when retries are off or the wait is too long", async () => {
    const noRetry = await client(server.keys.rateLimitedEveryOther, { maxRetries: 0 })
      .verifyKey()
      .then(() => client(server.keys.rateLimitedEveryOther, { maxRetries: 0 }).verifyKey())
      .catch((e: unknown) => e);
    expect(noRetry).toMatchObject({ code: "RATE_LIMITED", status: 429, retryAfter: 1 });
    const impatient = client(server.keys.rateLimitedEveryOther, { maxRetryDelayMs: 500 });
    const results = await Promise.allSettled([impatient.verifyKey(), impatient.verifyKey()]);
    expect(results.map((r) => r.status).sort()).toEqual(["fulfilled", "rejected"]);
  });

  it("retries a 500 with backoff, and gives up after maxRetries", async () => {
    expect((await client(server.keys.failingEveryOther).verifyKey()).data.valid).toBe(true);
    const once = client(server.keys.failingEveryOther, { maxRetries: 0 });
    const outcomes = await Promise.allSettled([once.verifyKey(), once.verifyKey()]);
    const rejected = outcomes.find((o) => o.status === "rejected") as PromiseRejectedResult | undefined;
    expect(rejected?.reason).toMatchObject({ code: "INTERNAL_ERROR", status: 500 });
  });

  it("sends one Idempotency-Key on every attempt of a POST, so a create whose answer was lost happens once", async () => {
    const note = `lost answer ${Date.now()}`;
    const keysSent: (string | undefined)[] = [];
    let lose = true;
    const losingFirstAnswer: typeof fetch = async (input, init) => {
      keysSent.push((init?.headers as Record<string, string>)["Idempotency-Key"]);
      const response = await fetch(input, init); // the server does the work…
      if (lose && init?.method === "POST") {
        lose = false;
        throw new TypeError("fetch failed"); // …and the answer never arrives
      }
      return response;
    };
    const desk = client(server.keys.desk, { fetch: losingFirstAnswer, maxRetries: 2 });
    const { data: opportunities } = await desk.listOpportunities({ limit: 1 });
    const created = await desk.createPortfolioPosition({ opportunity_id: opportunities.items[0]!.id, notional_usd: 1000, note });
    expect(created.data.note).toBe(note);
    expect(keysSent.slice(1)).toHaveLength(2);
    expect(keysSent[1]).toMatch(/^[0-9a-f-]{36}$/);
    expect(keysSent[2]).toBe(keysSent[1]);
    const { data: positions } = await client(server.keys.desk).listPortfolioPositions({ limit: 100 });
    expect(positions.items.filter((p) => p.note === note)).toHaveLength(1);
  });

  it("retries network failures, bounded", async () => {
    let attempts = 0;
    const failing: typeof fetch = async () => {
      attempts++;
      throw new TypeError("fetch failed");
    };
    await expect(client(server.keys.desk, { fetch: failing, maxRetries: 2 }).verifyKey()).rejects.toThrow("fetch failed");
    expect(attempts).toBe(3);
  });
});
