import { randomBytes } from "node:crypto";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { createApiApp } from "@/lib/api/app";
import { FAILED_AUTH_LIMIT } from "@/lib/api/failed-auth-throttle";
import { createAppServices, type AppServices } from "@/lib/app-services";
import type { Db } from "@/lib/db";
import type { OpenDatabase } from "@/lib/db/open-database";
import { checksumFor } from "@/lib/keys/format";
import { createKeyFor, createUser } from "./helpers/api-fixtures";
import { createTestDatabase } from "@/tests/support/test-database";

let database: OpenDatabase;
let services: AppServices;
let dbCalls = 0;
let app: ReturnType<typeof createApiApp>;

/** Fresh services (and limiter) each test: the limiter takes its clock when it is made. */
function startApp() {
  services = createAppServices(async (): Promise<Db> => {
    dbCalls++;
    return database.db;
  });
  app = createApiApp(() => services);
}

beforeAll(async () => {
  database = await createTestDatabase();
});
afterEach(async () => {
  vi.useRealTimers();
  await services?.stopRecorders();
});
afterAll(async () => {
  await database?.close();
});

/** A key nobody issued, with a valid checksum: it passes the format check and costs a lookup. */
function forgedKey(): string {
  const body = randomBytes(24).toString("base64url").replace(/[^0-9A-Za-z]/g, "a").slice(0, 32).padEnd(32, "a");
  return `svc_sk_live_${body}${checksumFor("live", body)}`;
}

function verify(key: string, address: string) {
  return app.fetch(new Request("http://localhost/v1/auth/verify", { headers: { Authorization: `Bearer ${key}`, "X-Real-IP": address } }));
}

describe("failed key authentications per address", () => {
  it("refuses an address with 429 and no database read once it passes the limit, and lets its valid keys in after the window", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(new Date("2026-11-24T12:00:05Z"));
    startApp();
    const user = await createUser(database.db, "desk");
    const { secret } = await createKeyFor(database.db, user.id);
    const attacker = "198.51.100.23";

    for (let i = 0; i < FAILED_AUTH_LIMIT; i++) expect((await verify(forgedKey(), attacker)).status).toBe(401);
    // The failure past the limit is the last one looked up.
    expect((await verify(forgedKey(), attacker)).status).toBe(429);

    const before = dbCalls;
    for (const key of [forgedKey(), forgedKey(), secret]) {
      const response = await verify(key, attacker);
      expect(response.status).toBe(429);
      const body = await response.json();
      expect(body.error).toMatchObject({ code: "RATE_LIMITED", message: "Rate limit exceeded" });
      expect(body.error.retry_after).toBeGreaterThanOrEqual(1);
      expect(response.headers.get("retry-after")).toBe(String(body.error.retry_after));
      expect(response.headers.get("x-ratelimit-limit")).toBe(String(FAILED_AUTH_LIMIT));
    }
    expect(dbCalls, "a refused address costs no database read").toBe(before);

    // Another address is untouched meanwhile.
    expect((await verify(secret, "198.51.100.99")).status).toBe(200);

    vi.setSystemTime(new Date("2026-11-24T12:02:10Z"));
    expect((await verify(secret, attacker)).status).toBe(200);
  });

  it("does not count valid keys, nor malformed ones (which never reach the database)", async () => {
    startApp();
    const user = await createUser(database.db, "pro");
    const { secret } = await createKeyFor(database.db, user.id);
    const busy = "198.51.100.40";
    for (let i = 0; i < FAILED_AUTH_LIMIT * 2; i++) expect((await verify(secret, busy)).status).toBe(200);
    for (let i = 0; i < FAILED_AUTH_LIMIT * 2; i++) expect((await verify("svc_sk_live_nonsense", busy)).status).toBe(401);
    expect((await verify(secret, busy)).status).toBe(200);
  });
});
