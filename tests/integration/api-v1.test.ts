import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { neededPermission } from "@/lib/keys/permissions";
import { createApiApp, API_ROUTES } from "@/lib/api/app";
import { createAppServices, type AppServices } from "@/lib/app-services";
import type { Db } from "@/lib/db";
import { revokeKey } from "@/lib/keys/account-keys";
import { changeTier } from "@/lib/billing/change-tier";
import { checksumFor } from "@/lib/keys/format";
import { createKeyFor, createUser, dbServices, liveOpportunity, seedLiveOpportunities, signedIn } from "@/tests/support/api-fixtures";
import { testDatabaseForFile } from "@/tests/support/test-database-for-file";

const database = testDatabaseForFile();
let services: AppServices;
let dbCalls = 0;
let app: ReturnType<typeof createApiApp>;
const origin = { ip: "203.0.113.7", userAgent: "vitest" };

beforeAll(async () => {
  const db = async (): Promise<Db> => {
    dbCalls++;
    return database.db;
  };
  services = createAppServices(db);
  app = createApiApp(() => services);
  await seedLiveOpportunities(database.db, [
    liveOpportunity("LIVEONLY", 42),
    liveOpportunity("BTC", 12.5),
    liveOpportunity("ETH", 30, "okx", "gate"),
    liveOpportunity("SOL", 30, "bybit", "okx"),
  ]);
});
afterAll(async () => {
  await services?.stopRecorders();
});

function callWith(path: string, authorization?: string, method = "GET") {
  const headers: Record<string, string> = authorization === undefined ? {} : { Authorization: authorization };
  return app.fetch(new Request(`http://localhost${path}`, { method, headers }));
}

const call = (path: string, authorization?: string, method = "GET") => callWith(path, authorization, method);

async function expectError(response: Response, status: number, code: string, message?: string) {
  expect(response.status).toBe(status);
  const body = await response.json();
  expect(body.error.code).toBe(code);
  if (message) expect(body.error.message).toBe(message);
  expect(body.meta.request_id).toBe(response.headers.get("x-request-id"));
  expect(body.meta.request_id).toMatch(/^req_[0-9A-Za-z]{24}$/);
  expect(body).not.toHaveProperty("data");
  return body;
}

// Each code's default text, then what a client can act on.
const UNAUTHORIZED = "Invalid or missing API key";
const FORBIDDEN = "Insufficient permissions for this endpoint";
const MISSING = `${UNAUTHORIZED}: the Authorization header is missing`;
const WRONG_SCHEME = `${UNAUTHORIZED}: the Authorization header must use the Bearer scheme (Authorization: Bearer <API key>)`;
const EMPTY = `${UNAUTHORIZED}: the Bearer token is empty`;
const MALFORMED = `${UNAUTHORIZED}: the key is malformed (svc_sk_live_ or svc_sk_test_ followed by 38 letters and digits)`;
const BAD_CHECKSUM = `${UNAUTHORIZED}: the key is malformed (its checksum does not match: check it was copied whole)`;
const UNKNOWN = `${UNAUTHORIZED}: the key is unknown, revoked or expired`;
const NEEDS: Record<string, string> = {
  "opportunities:read": `${FORBIDDEN}: needs opportunities:read, included in the Pro and Desk plans`,
  "simulations:read": `${FORBIDDEN}: needs simulations:read, included in the Pro and Desk plans`,
  "portfolio:read": `${FORBIDDEN}: needs portfolio:read, included in the Pro and Desk plans`,
  write: `${FORBIDDEN}: needs write, included in the Desk plan`,
};

/** A 401 as RFC 6750 §3 has it: a bare Bearer challenge without a token, `invalid_token` with one. */
async function expectUnauthorized(response: Response, message: string, tokenSent: boolean) {
  const challenge = response.headers.get("www-authenticate");
  await expectError(response, 401, "UNAUTHORIZED", message);
  if (tokenSent) expect(challenge).toMatch(/^Bearer error="invalid_token", error_description="[^"\\]+"$/);
  else expect(challenge).toBe("Bearer");
}

// Every /v1 route, plus a path that does not exist: authentication comes first everywhere.
const targets = [
  ...API_ROUTES.map((r) => ({ name: `${r.method} ${r.path}`, method: r.method, path: r.path, permission: r.permission, fallback: r.permissionOnPlansWithout })),
  { name: "unknown path", method: "GET", path: "/v1/nope", permission: null, fallback: undefined },
];

describe.each(targets)("authentication on $name", ({ method, path, permission, fallback }) => {
  const call = (target: string, authorization?: string) => callWith(target, authorization, method);
  it("refuses a missing header, the wrong scheme and an empty bearer", async () => {
    await expectUnauthorized(await call(path), MISSING, false);
    await expectUnauthorized(await call(path, "Basic dXNlcjpwYXNz"), WRONG_SCHEME, false);
    await expectUnauthorized(await call(path, "Bearer "), EMPTY, false);
  });

  it("refuses malformed keys and bad checksums without touching the database", async () => {
    const before = dbCalls;
    await expectUnauthorized(await call(path, "Bearer svc_sk_live_short"), MALFORMED, true);
    await expectUnauthorized(await call(path, "Bearer sk_live_" + "a".repeat(38)), MALFORMED, true);
    const body = "A".repeat(32);
    const wrongChecksum = checksumFor("live", body) === "000000" ? "000001" : "000000";
    await expectUnauthorized(await call(path, `Bearer svc_sk_live_${body}${wrongChecksum}`), BAD_CHECKSUM, true);
    expect(dbCalls).toBe(before);
  });

  it("refuses unknown, revoked and expired keys", async () => {
    const body = "B".repeat(32);
    await expectUnauthorized(await call(path, `Bearer svc_sk_live_${body}${checksumFor("live", body)}`), UNKNOWN, true);
    const user = await createUser(database.db, "desk");
    const revoked = await createKeyFor(database.db, user.id, { revokedAt: new Date(Date.now() - 1000) });
    await expectUnauthorized(await call(path, `Bearer ${revoked.secret}`), UNKNOWN, true);
    const expired = await createKeyFor(database.db, user.id, { expiresAt: new Date(Date.now() - 1000) });
    await expectUnauthorized(await call(path, `Bearer ${expired.secret}`), UNKNOWN, true);
  });

  it.runIf(permission !== null)("refuses Free-tier keys and keys without the permission with 403", async () => {
    const free = await createUser(database.db, "free");
    const freeKey = await createKeyFor(database.db, free.id);
    // A plan without the route's permission names the one its keys would need (webhooks and alert rules: opportunities:read).
    await expectError(await call(path, `Bearer ${freeKey.secret}`), 403, "FORBIDDEN", NEEDS[neededPermission(permission, fallback, "free")!]);
    const pro = await createUser(database.db, "pro");
    const narrow = await createKeyFor(database.db, pro.id, { permissions: [permission === "portfolio:read" ? "opportunities:read" : "portfolio:read"] });
    await expectError(await call(path, `Bearer ${narrow.secret}`), 403, "FORBIDDEN", NEEDS[neededPermission(permission, fallback, "pro")!]);
  });
});

describe("GET /v1/auth/verify", () => {
  it("answers valid, tier and expires_at in the success envelope", async () => {
    const user = await createUser(database.db, "pro");
    const expiresAt = new Date(Date.now() + 86_400_000);
    const key = await createKeyFor(database.db, user.id, { expiresAt, permissions: ["opportunities:read", "write"] });
    const response = await call("/v1/auth/verify", `Bearer ${key.secret}`);
    expect(response.status).toBe(200);
    const body = await response.json();
    expect(body.data).toEqual({
      valid: true,
      tier: "pro",
      expires_at: expiresAt.toISOString(),
      mode: "live",
      permissions: ["opportunities:read"], // write is not a Pro permission
    });
    expect(body.meta).toEqual({ timestamp: expect.stringMatching(/Z$/), request_id: response.headers.get("x-request-id") });
  });

  it("answers valid with tier free for a Free account's key", async () => {
    const user = await createUser(database.db, "free");
    const key = await createKeyFor(database.db, user.id);
    const body = await (await call("/v1/auth/verify", `Bearer ${key.secret}`)).json();
    expect(body.data).toMatchObject({ valid: true, tier: "free", expires_at: null, permissions: [] });
  });
});

describe("GET /v1/opportunities", () => {
  let liveKey: string;
  let testKey: string;
  beforeAll(async () => {
    const user = await createUser(database.db, "desk");
    liveKey = (await createKeyFor(database.db, user.id)).secret;
    testKey = (await createKeyFor(database.db, user.id, { mode: "test" })).secret;
  });
  const get = (query: string, key = liveKey) => call(`/v1/opportunities${query}`, `Bearer ${key}`);

  it("lists live opportunities by apr descending, ties broken by id, in the list envelope", async () => {
    const response = await get("");
    expect(response.status).toBe(200);
    const body = await response.json();
    expect(body.data).toMatchObject({ total: 4, limit: 50, offset: 0, has_more: false });
    expect(body.data.items.map((o: { id: string }) => o.id)).toEqual([
      "LIVEONLY-binance-bybit",
      "ETH-okx-gate",
      "SOL-bybit-okx",
      "BTC-binance-bybit",
    ]);
    expect(body.meta).toMatchObject({ data_as_of: "2026-11-21T15:59:00.000Z", sample: false, mode: "live" });
  });

  it("filters by exchange on either leg, by min_apr and by symbol, and pages", async () => {
    const ids = async (query: string) => (await (await get(query)).json()).data.items.map((o: { id: string }) => o.id);
    expect(await ids("?exchange=okx")).toEqual(["ETH-okx-gate", "SOL-bybit-okx"]);
    expect(await ids("?min_apr=30")).toEqual(["LIVEONLY-binance-bybit", "ETH-okx-gate", "SOL-bybit-okx"]);
    expect(await ids("?symbol=btc")).toEqual(["BTC-binance-bybit"]);
    expect(await ids("?sort=apr&limit=2")).toEqual(["BTC-binance-bybit", "ETH-okx-gate"]);
    const page = (await (await get("?limit=1&offset=1")).json()).data;
    expect(page).toMatchObject({ total: 4, limit: 1, offset: 1, has_more: true });
    expect(page.items.map((o: { id: string }) => o.id)).toEqual(["ETH-okx-gate"]);
  });

  it.each([
    ["limit=101", "limit"],
    ["limit=0", "limit"],
    ["limit=1.5", "limit"],
    ["offset=-1", "offset"],
    ["limit=abc", "limit"],
    ["min_apr=ten", "min_apr"],
    ["exchange=ftx", "exchange"],
    ["sort=volume", "sort"],
    ["limit=5&limit=6", "limit"],
    ["colour=blue", "colour"],
  ])("refuses %s with a 400 naming %s", async (query, field) => {
    const body = await expectError(await get(`?${query}`), 400, "VALIDATION_ERROR");
    expect(body.error.details[0].field).toBe(field);
  });

  it.each([
    ["limit=99999999999999999", "Must be at most 100"],
    ["offset=-99999999999999999999", "Must be at least 0"],
    [`min_apr=1${"0".repeat(400)}`, "Must be a number of reasonable size"],
  ])("tells %s what is wrong with it", async (query, message) => {
    const body = await expectError(await get(`?${query}`), 400, "VALIDATION_ERROR");
    expect(body.error.details).toEqual([{ field: query.split("=")[0], message }]);
  });

  it("reads min_apr written without a leading zero", async () => {
    expect((await get("?min_apr=.5")).status).toBe(200);
  });

  it("gives test keys the sandbox, never live data", async () => {
    const response = await get("?limit=100", testKey);
    expect(response.status).toBe(200);
    const body = await response.json();
    expect(body.meta.mode).toBe("test");
    expect(body.data.total).toBeGreaterThan(50);
    const all: string[] = [];
    for (let offset = 0; offset < body.data.total; offset += 100) {
      const page = await (await get(`?limit=100&offset=${offset}`, testKey)).json();
      all.push(...page.data.items.map((o: { id: string }) => o.id));
    }
    expect(all).toHaveLength(body.data.total);
    expect(all.some((id) => id.startsWith("LIVEONLY"))).toBe(false);
  });
});

describe("unknown paths and methods", () => {
  it("answers 404 and 405 only to authenticated callers", async () => {
    const user = await createUser(database.db, "pro");
    const { secret } = await createKeyFor(database.db, user.id);
    await expectError(await call("/v1/opportunities", undefined, "DELETE"), 401, "UNAUTHORIZED");
    await expectError(await call("/v1/does-not-exist", `Bearer ${secret}`), 404, "NOT_FOUND");
    const wrongMethod = await call("/v1/opportunities", `Bearer ${secret}`, "DELETE");
    await expectError(wrongMethod, 405, "METHOD_NOT_ALLOWED");
    expect(wrongMethod.headers.get("allow")).toBe("GET");
  });
});

describe("rate limits", () => {
  // Fixed 60 s windows: the clock (Date only) stands 17.3 s into a minute, so no count straddles one.
  const MINUTE_START = Date.parse("2026-11-24T12:00:00Z");
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(MINUTE_START + 17_300);
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it("gives the whole limit back to a key that waits exactly retry_after seconds", async () => {
    const user = await createUser(database.db, "pro");
    const { secret } = await createKeyFor(database.db, user.id);
    for (let i = 0; i < 100; i++) expect((await call("/v1/auth/verify", `Bearer ${secret}`)).status).toBe(200);
    const refused = await call("/v1/auth/verify", `Bearer ${secret}`);
    const body = await expectError(refused, 429, "RATE_LIMITED");
    expect(body.error.retry_after).toBe(43); // 42.7 s to the minute's end, rounded up
    expect(refused.headers.get("retry-after")).toBe("43");
    expect(refused.headers.get("x-ratelimit-reset")).toBe(String((MINUTE_START + 60_000) / 1000));

    vi.setSystemTime(MINUTE_START + 17_300 + body.error.retry_after * 1000);
    const statuses: number[] = [];
    for (let i = 0; i < 101; i++) statuses.push((await call("/v1/auth/verify", `Bearer ${secret}`)).status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(100);
    expect(statuses[100]).toBe(429);
  });

  it("lets 100 Pro requests through and refuses the 101st with consistent headers", async () => {
    const user = await createUser(database.db, "pro");
    const { secret } = await createKeyFor(database.db, user.id);
    let last: Response | undefined;
    for (let i = 1; i <= 100; i++) {
      last = await call("/v1/auth/verify", `Bearer ${secret}`);
      expect(last.status).toBe(200);
      expect(last.headers.get("x-ratelimit-limit")).toBe("100");
      expect(last.headers.get("x-ratelimit-remaining")).toBe(String(100 - i));
    }
    const refused = await call("/v1/auth/verify", `Bearer ${secret}`);
    const body = await expectError(refused, 429, "RATE_LIMITED", "Rate limit exceeded");
    expect(refused.headers.get("x-ratelimit-remaining")).toBe("0");
    const reset = Number(refused.headers.get("x-ratelimit-reset"));
    expect(reset).toBeGreaterThan(Date.now() / 1000);
    expect(reset).toBeLessThanOrEqual(Math.ceil(Date.now() / 1000) + 60);
    expect(Number.isInteger(body.error.retry_after)).toBe(true);
    expect(body.error.retry_after).toBeGreaterThanOrEqual(1);
    expect(refused.headers.get("retry-after")).toBe(String(body.error.retry_after));
    // A second key of the same account has its own window.
    const other = await createKeyFor(database.db, user.id);
    expect((await call("/v1/auth/verify", `Bearer ${other.secret}`)).status).toBe(200);
  });

  it("gives Desk keys 1000 a minute", async () => {
    const user = await createUser(database.db, "desk");
    const { secret } = await createKeyFor(database.db, user.id);
    const response = await call("/v1/auth/verify", `Bearer ${secret}`);
    expect(response.headers.get("x-ratelimit-limit")).toBe("1000");
  });
});

describe("the hot path", () => {
  it("refuses a key on the very next request after it is revoked", async () => {
    const user = await createUser(database.db, "pro");
    const { secret, id } = await createKeyFor(database.db, user.id);
    expect((await call("/v1/auth/verify", `Bearer ${secret}`)).status).toBe(200);
    const before = dbCalls;
    expect((await call("/v1/auth/verify", `Bearer ${secret}`)).status).toBe(200);
    expect(dbCalls).toBe(before); // served from the verified-key cache
    await revokeKey(dbServices(database.db), signedIn(user), id, origin);
    await expectError(await call("/v1/auth/verify", `Bearer ${secret}`), 401, "UNAUTHORIZED");
  });

  it("applies a downgrade to cached keys at once", async () => {
    const user = await createUser(database.db, "pro");
    const { secret } = await createKeyFor(database.db, user.id);
    expect((await call("/v1/opportunities", `Bearer ${secret}`)).status).toBe(200);
    await changeTier(database.db, { userId: user.id }, { userId: user.id, tier: "free" }, origin);
    await expectError(await call("/v1/opportunities", `Bearer ${secret}`), 403, "FORBIDDEN");
    expect((await (await call("/v1/auth/verify", `Bearer ${secret}`)).json()).data.tier).toBe("free");
  });

  it("records last use at most once a minute, off the request path", async () => {
    const user = await createUser(database.db, "pro");
    const { secret, id } = await createKeyFor(database.db, user.id);
    await call("/v1/auth/verify", `Bearer ${secret}`);
    expect((await database.db.apiKey.findUniqueOrThrow({ where: { id } })).lastUsedAt).toBeNull();
    await services.lastUsed.flush();
    const first = (await database.db.apiKey.findUniqueOrThrow({ where: { id } })).lastUsedAt;
    expect(first).toBeInstanceOf(Date);
    await call("/v1/auth/verify", `Bearer ${secret}`);
    await services.lastUsed.flush();
    expect((await database.db.apiKey.findUniqueOrThrow({ where: { id } })).lastUsedAt).toEqual(first);
  });
});
