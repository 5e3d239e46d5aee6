import { randomBytes } from "node:crypto";
import { afterEach, describe, expect, it, vi } from "vitest";
import { createApiApp } from "@/lib/api/app";
import { FAILED_AUTH_LIMIT, failedAuthBucket } from "@/lib/api/failed-auth-throttle";
import { createAppServices, type AppServices } from "@/lib/app-services";
import type { Db } from "@/lib/db";
import { checksumFor } from "@/lib/keys/format";
import { createKeyFor, createUser } from "@/tests/support/api-fixtures";
import { testDatabaseForFile } from "@/tests/support/test-database-for-file";

const database = testDatabaseForFile();
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

afterEach(async () => {
  vi.useRealTimers();
  await services?.stopRecorders();
});
/** A key nobody issued, with a valid checksum: it passes the format check and costs a lookup. */
function forgedKey(): string {
  const body = randomBytes(24).toString("base64url").replace(/[^0-9A-Za-z]/g, "a").slice(0, 32).padEnd(32, "a");
  return `svc_sk_live_${body}${checksumFor("live", body)}`;
}

/** Another key with a valid checksum and the same mode and first 8 secret characters as `key`. */
function sameDisplayedPrefix(key: string): string {
  const body = key.slice(12, 20) + forgedKey().slice(20, 44);
  return `svc_sk_live_${body}${checksumFor("live", body)}`;
}

function verify(key: string, address: string) {
  return app.fetch(new Request("http://localhost/v1/auth/verify", { headers: { Authorization: `Bearer ${key}`, "X-Real-IP": address } }));
}

describe("failed key authentications per address and key prefix", () => {
  it("refuses a forged key past the limit with 429 and no database read, and lets it in after the window", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(new Date("2026-11-24T12:00:05Z"));
    startApp();
    const attacker = "198.51.100.23";
    const forged = forgedKey();

    for (let i = 0; i < FAILED_AUTH_LIMIT; i++) expect((await verify(forged, attacker)).status).toBe(401);
    // The failure past the limit is the last one counted.
    expect((await verify(forged, attacker)).status).toBe(429);

    const before = dbCalls;
    // Another key of the same displayed prefix fills the same bucket: refused without a lookup too.
    for (const key of [forged, sameDisplayedPrefix(forged)]) {
      const response = await verify(key, attacker);
      expect(response.status).toBe(429);
      const body = await response.json();
      expect(body.error).toMatchObject({ code: "RATE_LIMITED", message: "Rate limit exceeded" });
      expect(body.error.retry_after).toBeGreaterThanOrEqual(1);
      expect(response.headers.get("retry-after")).toBe(String(body.error.retry_after));
      expect(response.headers.get("x-ratelimit-limit")).toBe(String(FAILED_AUTH_LIMIT));
    }
    expect(dbCalls, "a refused bucket costs no database read").toBe(before);

    // The same key from another address is its own bucket.
    expect((await verify(forged, "198.51.100.99")).status).toBe(401);

    vi.setSystemTime(new Date("2026-11-24T12:02:10Z"));
    expect((await verify(forged, attacker)).status).toBe(401);
  });

  it("never refuses a valid key for other keys' failures from its address (one NAT address, many users)", async () => {
    startApp();
    const user = await createUser(database.db, "desk");
    const { secret } = await createKeyFor(database.db, user.id);
    const office = "198.51.100.30";
    for (let i = 0; i < FAILED_AUTH_LIMIT + 10; i++) expect((await verify(forgedKey(), office)).status).toBe(401);
    for (let i = 0; i < 5; i++) expect((await verify(secret, office)).status).toBe(200);
    // Nor for forgeries that fill its own bucket, once this process holds it as valid.
    const lookalike = sameDisplayedPrefix(secret);
    for (let i = 0; i <= FAILED_AUTH_LIMIT; i++) await verify(lookalike, office);
    expect((await verify(lookalike, office)).status).toBe(429);
    expect((await verify(secret, office)).status).toBe(200);
  });

  it("groups an IPv6 client by its /64", async () => {
    startApp();
    const forged = forgedKey();
    for (let i = 0; i < FAILED_AUTH_LIMIT; i++) expect((await verify(forged, `2001:db8:40:1::${(i + 1).toString(16)}`)).status).toBe(401);
    expect((await verify(forged, "2001:db8:40:1:ffff::1")).status).toBe(429);
    expect((await verify(forged, "2001:db8:40:2::1")).status).toBe(401);
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

describe("failedAuthBucket", () => {
  it("is the address group and the key's displayed prefix, or a digest of a token without a key's shape", () => {
    const key = forgedKey();
    expect(failedAuthBucket("198.51.100.1", key)).toBe(`198.51.100.1|${key.slice(0, 20)}`);
    expect(failedAuthBucket("2001:db8::1", key)).toBe(`2001:db8:0:0::/64|${key.slice(0, 20)}`);
    expect(failedAuthBucket("198.51.100.1", "nonsense")).toMatch(/^198\.51\.100\.1\|#[\w-]{16}$/);
    expect(failedAuthBucket("198.51.100.1", "nonsense")).not.toBe(failedAuthBucket("198.51.100.1", "nonsense2"));
  });
});
