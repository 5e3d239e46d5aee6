// Usage per key and per account, end to end in-process: real /v1 requests of every outcome
// (successes, a 304, a 400, 404s, 429s), recorded by the app's middleware, flushed, then read back
// through GET /v1/usage with exact counts; account scoping; several processes adding up; retention.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApiApp } from "@/lib/api/app";
import { createAppServices, type AppServices } from "@/lib/app-services";
import { readAccountUsage } from "@/lib/usage/read-account-usage";
import { HOUR_MS, UsageRecorder } from "@/lib/usage/usage-recorder";
import { resolveUsageRange } from "@/lib/usage/usage-range";
import { deleteExpiredUsage } from "@/lib/usage/usage-retention";
import { createKeyFor, createUser, dbServices, liveOpportunity, seedLiveOpportunities, signedIn } from "@/tests/support/api-fixtures";
import { testDatabaseForFile } from "@/tests/support/test-database-for-file";
import { captureLogs } from "@/tests/support/capture-logs";
import { withRoomInWindow } from "@/tests/support/fixed-window";

const database = testDatabaseForFile();
let services: AppServices;
let app: ReturnType<typeof createApiApp>;
// A Pro key may make 5 requests a minute here, so a 429 takes a handful of requests.
const LIMIT = 5;

beforeAll(async () => {
  services = createAppServices(async () => database.db, { ...process.env, RATE_LIMIT_SCALE: "0.05", REDIS_URL: "", UPSTASH_REDIS_REST_URL: "" });
  app = createApiApp(() => services);
  await seedLiveOpportunities(database.db, [liveOpportunity("BTC", 12.5), liveOpportunity("ETH", 30, "okx", "gate")]);
});
afterAll(async () => {
  await services?.stopRecorders();
});

function call(path: string, key?: string, headers: Record<string, string> = {}) {
  return app.fetch(new Request(`http://localhost${path}`, { headers: { ...(key && { Authorization: `Bearer ${key}` }), ...headers } }));
}

async function usage(key: string, query = "") {
  const response = await call(`/v1/usage${query}`, key);
  return { status: response.status, body: await response.json() };
}

/** The requests of one key below must fall into one rate-limit window (a clock minute). */
const earlyInAMinute = () => withRoomInWindow(60_000, 20_000);

describe("GET /v1/usage", () => {
  let ownerKey: { secret: string; id: string };
  let testKey: { secret: string; id: string };
  let otherKey: { secret: string; id: string };
  let deskKey: string;

  beforeAll(async () => {
    const owner = await createUser(database.db, "pro");
    ownerKey = await createKeyFor(database.db, owner.id);
    testKey = await createKeyFor(database.db, owner.id, { mode: "test" });
    const other = await createUser(database.db, "pro");
    otherKey = await createKeyFor(database.db, other.id);
    // The refusals below take a dozen requests: a Desk key's 50 a minute leave room for them.
    deskKey = (await createKeyFor(database.db, (await createUser(database.db, "desk")).id)).secret;

    await earlyInAMinute();
    const statuses: number[] = [];
    const send = async (path: string, key: string, headers?: Record<string, string>) => {
      const response = await call(path, key, headers);
      statuses.push(response.status);
      return response;
    };
    await send("/v1/auth/verify", ownerKey.secret);
    const listed = await send("/v1/opportunities", ownerKey.secret);
    await send("/v1/opportunities", ownerKey.secret, { "If-None-Match": listed.headers.get("etag")! });
    await send("/v1/opportunities/NOPE-binance-bybit", ownerKey.secret);
    await send("/v1/opportunities?limit=999", ownerKey.secret);
    await send("/v1/auth/verify", ownerKey.secret); // the limit's 6th: refused
    await send("/v1/opportunities", ownerKey.secret); // refused too, on the cached route
    await send("/v1/nope", testKey.secret);
    await send("/v1/opportunities", testKey.secret);
    await send("/v1/auth/verify", otherKey.secret);
    // Without a valid key nothing belongs to an account: not usage.
    await call("/v1/auth/verify");
    await call("/v1/auth/verify", "svc_sk_live_" + "A".repeat(38));
    expect(statuses).toEqual([200, 200, 304, 404, 400, 429, 429, 404, 200, 200]);
    await services.usage.flush();
  });

  it("answers every request of the account's keys by outcome, route and key, with each key's busiest minute", async () => {
    const { status, body } = await usage(testKey.secret);
    expect(status).toBe(200);
    const report = body.data;
    expect(report.granularity).toBe("hour");
    expect(report.buckets).toHaveLength(24);
    expect(report.totals).toEqual({ requests: 10 - 1, successes: 4, client_errors: 3, rate_limited: 2, server_errors: 0 });
    // The requests fell in this hour (or the one before, at an hour's turn): the buckets add up to the totals.
    const sum = report.buckets.reduce((n: number, bucket: { requests: number }) => n + bucket.requests, 0);
    expect(sum).toBe(9);
    expect(Object.fromEntries(report.routes.map((r: { route: string; requests: number; successes: number; client_errors: number; rate_limited: number }) => [r.route, [r.successes, r.client_errors, r.rate_limited]]))).toEqual({
      "GET /v1/opportunities": [3, 1, 1],
      "GET /v1/auth/verify": [1, 0, 1],
      "GET /v1/opportunities/{id}": [0, 1, 0],
      "(unknown route)": [0, 1, 0],
    });

    const byId = Object.fromEntries(report.keys.map((k: { id: string }) => [k.id, k]));
    expect(Object.keys(byId).sort()).toEqual([ownerKey.id, testKey.id].sort());
    expect(byId[ownerKey.id]).toMatchObject({
      mode: "live",
      active: true,
      totals: { requests: 7, successes: 3, client_errors: 2, rate_limited: 2, server_errors: 0 },
      peak_per_minute: LIMIT,
      limit_per_minute: LIMIT,
    });
    expect(byId[testKey.id]).toMatchObject({ mode: "test", totals: { requests: 2, successes: 1, client_errors: 1 }, peak_per_minute: 2, limit_per_minute: LIMIT });
    expect(byId[ownerKey.id].prefix).toMatch(/^svc_sk_live_/);
  });

  it("gives the same numbers by the day, and counts its own requests too", async () => {
    await services.usage.flush(); // the previous test's GET /v1/usage
    const { body } = await usage(testKey.secret, "?granularity=day");
    expect(body.data.buckets).toHaveLength(30);
    expect(body.data.buckets.at(-1).start).toBe(`${new Date().toISOString().slice(0, 10)}T00:00:00.000Z`);
    expect(body.data.totals).toEqual({ requests: 10, successes: 5, client_errors: 3, rate_limited: 2, server_errors: 0 });
    expect(body.data.routes.find((r: { route: string }) => r.route === "GET /v1/usage")).toMatchObject({ successes: 1 });
  });

  it("shows another account nothing of this one", async () => {
    await services.usage.flush();
    const { body } = await usage(otherKey.secret);
    expect(body.data.totals).toEqual({ requests: 1, successes: 1, client_errors: 0, rate_limited: 0, server_errors: 0 });
    expect(body.data.keys.map((k: { id: string }) => k.id)).toEqual([otherKey.id]);
    expect(JSON.stringify(body)).not.toContain(ownerKey.id);
  });

  it("answers an explicit range with exactly its buckets", async () => {
    const { status, body } = await usage(otherKey.secret, "?granularity=day&from=2026-11-01&to=2026-11-08");
    expect(status).toBe(200);
    expect(body.data).toMatchObject({ from: "2026-11-01T00:00:00.000Z", to: "2026-11-08T00:00:00.000Z" });
    expect(body.data.buckets.map((b: { start: string }) => b.start.slice(0, 10))).toEqual([
      "2026-11-01", "2026-11-02", "2026-11-03", "2026-11-04", "2026-11-05", "2026-11-06", "2026-11-07",
    ]);
  });

  it.each([
    ["?granularity=week", "granularity", "Must be one of: hour, day"],
    ["?from=yesterday", "from", "Must be an ISO 8601 date or date-time, e.g. 2026-11-21T00:00:00Z"],
    ["?from=2026-11-01T00:00:00Z&to=2026-11-09T00:00:00Z", "to", "The range may span at most 7 days at hour granularity"],
    ["?granularity=day&from=2026-01-01&to=2026-06-01", "to", "The range may span at most 90 days at day granularity"],
    ["?from=2026-11-02&to=2026-11-01", "to", "Must be after from"],
    ["?from=9999-01-01", "from", "Must not be in the future"],
    ["?limit=10", "limit", "Unknown query parameter"],
  ])("refuses %s with a 400 naming the field", async (query, field, message) => {
    const { status, body } = await usage(deskKey, query);
    expect(status).toBe(400);
    expect(body.error.code).toBe("VALIDATION_ERROR");
    expect(body.error.details).toEqual([{ field, message }]);
  });
});

describe("recording", () => {
  it("counts a 500 as a server error, and answers of an app that does not precompress like the others", async () => {
    const user = await createUser(database.db, "pro");
    const key = await createKeyFor(database.db, user.id);
    const broken = createApiApp(() => ({
      ...services,
      market: () => {
        throw new Error("injected market failure");
      },
    }));
    const plain = createApiApp(() => services, { precompress: false });
    const get = (mounted: typeof app, path: string) =>
      mounted.fetch(new Request(`http://localhost${path}`, { headers: { Authorization: `Bearer ${key.secret}` } }));
    const logs = captureLogs(); // the 500 is logged with its request id
    const failed = await Promise.resolve(get(broken, "/v1/funding-rates?exchange=binance&symbol=BTC")).finally(logs.restore);
    expect(failed.status).toBe(500);
    expect(logs.records()).toContainEqual(expect.objectContaining({ level: "error", msg: "unhandled error", request_id: failed.headers.get("x-request-id"), account: user.id }));
    expect((await get(plain, "/v1/auth/verify")).status).toBe(200);
    await services.usage.flush();
    const rows = await database.db.apiUsageHourly.findMany({ where: { keyId: key.id }, orderBy: { route: "asc" } });
    expect(rows.map((row) => [row.route, row.successes, row.serverErrors])).toEqual([
      ["GET /v1/auth/verify", 1, 0],
      ["GET /v1/funding-rates", 0, 1],
    ]);
  });

  it("adds the counts of several processes to the same rows and keeps the larger busiest minute", async () => {
    const user = await createUser(database.db, "desk");
    const key = await createKeyFor(database.db, user.id);
    const hour = Math.floor(Date.now() / HOUR_MS) * HOUR_MS;
    const first = new UsageRecorder(async () => database.db);
    const second = new UsageRecorder(async () => database.db);
    for (let i = 1; i <= 3; i++) first.record(key.id, "GET /v1/opportunities", 200, i, hour + i);
    second.record(key.id, "GET /v1/opportunities", 200, 7, hour + 10);
    second.record(key.id, "GET /v1/opportunities", 503, 8, hour + 11);
    await Promise.all([first.flush(), second.flush()]);
    first.record(key.id, "GET /v1/opportunities", 429, 2, hour + 12);
    await first.flush();

    const rows = await database.db.apiUsageHourly.findMany({ where: { keyId: key.id } });
    expect(rows).toEqual([
      expect.objectContaining({ userId: user.id, hour: new Date(hour), successes: 4, clientErrors: 0, rateLimited: 1, serverErrors: 1, peakPerMinute: 8 }),
    ]);
    const report = await readAccountUsage({ ...dbServices(database.db), requestsPerMinute: () => 1000 }, signedIn(user), resolveUsageRange({ granularity: "hour" }));
    expect(report.keys[0]).toMatchObject({ id: key.id, peak_per_minute: 8, limit_per_minute: 1000, totals: { requests: 6 } });
  });

  it("skips the counts of a key deleted before the flush instead of failing the batch", async () => {
    const user = await createUser(database.db, "pro");
    const kept = await createKeyFor(database.db, user.id);
    const deleted = await createKeyFor(database.db, user.id);
    const recorder = new UsageRecorder(async () => database.db);
    recorder.record(kept.id, "GET /v1/auth/verify", 200, 1);
    recorder.record(deleted.id, "GET /v1/auth/verify", 200, 1);
    await database.db.apiKey.delete({ where: { id: deleted.id } });
    await recorder.flush();
    expect((await database.db.apiUsageHourly.findMany({ where: { userId: user.id } })).map((row) => row.keyId)).toEqual([kept.id]);
  });
});

describe("retention", () => {
  it("deletes usage older than 90 whole UTC days and keeps the rest", async () => {
    const user = await createUser(database.db, "pro");
    const key = await createKeyFor(database.db, user.id);
    const now = new Date("2026-11-24T20:35:00Z");
    const hours = ["2026-08-25T23:00:00Z", "2026-08-26T00:00:00Z", "2026-11-24T20:00:00Z"].map((text) => new Date(text));
    await database.db.apiUsageHourly.createMany({
      data: hours.map((hour) => ({ keyId: key.id, userId: user.id, hour, route: "GET /v1/auth/verify", successes: 1 })),
    });
    expect(await deleteExpiredUsage(database.db, now)).toBeGreaterThanOrEqual(1);
    const left = await database.db.apiUsageHourly.findMany({ where: { keyId: key.id }, orderBy: { hour: "asc" } });
    expect(left.map((row) => row.hour.toISOString())).toEqual(["2026-08-26T00:00:00.000Z", "2026-11-24T20:00:00.000Z"]);
  });
});
