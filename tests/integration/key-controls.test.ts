// Key controls: a key's IP allowlist (403 from other addresses, edits in force on the next request,
// refusals throttled per address and not counted against the key) and its expiry (401 once it has
// passed), on the API app as server.ts mounts it (createApiApp; tests/integration/one-door.test.ts
// runs server.ts's listener in front of it, however the path is spelled).
import { afterEach, describe, expect, it, vi } from "vitest";
import { createApiApp } from "@/lib/api/app";
import { FAILED_AUTH_LIMIT } from "@/lib/api/failed-auth-throttle";
import { readJson } from "@/lib/api/read-json";
import { createAppServices, type AppServices } from "@/lib/app-services";
import { createKey, createKeySchema, listKeys, revokeKey, rollKey, setKeyAllowlist, updateAllowlistSchema } from "@/lib/keys/account-keys";
import { addressNotAllowedMessage } from "@/lib/keys/ip-allowlist";
import { createKeyFor, createUser, signedIn } from "@/tests/support/api-fixtures";
import { expectEnvelope } from "./helpers/api-envelope";
import { appErrorFrom } from "@/tests/support/app-error";
import { testDatabaseForFile } from "@/tests/support/test-database-for-file";

const database = testDatabaseForFile();
let services: AppServices;
const origin = { ip: "203.0.113.7", userAgent: "vitest" };
const keyServices = { db: async () => database.db };

/** Fresh services (limiter, verifier cache) for each test: the limiter takes its clock when it is made. */
function startServices() {
  services = createAppServices(async () => database.db);
  return services;
}

/** startServices on a clock stopped at `instant`, so that every request falls in one rate-limit window. */
function startServicesAt(instant: string) {
  vi.useFakeTimers({ toFake: ["Date"] });
  vi.setSystemTime(new Date(instant));
  return startServices();
}

afterEach(async () => {
  vi.useRealTimers();
  await services?.stopRecorders();
});
type Mount = (path: string, key: string, address: string | undefined) => Response | Promise<Response>;

/** server.ts's mount: server.ts has put the socket's address in X-Real-IP. */
function serverMount(): Mount {
  const app = createApiApp(() => services);
  return (path, key, address) =>
    app.fetch(new Request(`http://localhost${path}`, { headers: { Authorization: `Bearer ${key}`, ...(address && { "X-Real-IP": address }) } }));
}

const MOUNTS: [string, () => Mount][] = [["server.ts", serverMount]];

async function errorOf(response: Response, context: string) {
  const envelope = expectEnvelope(response.status, response.headers, await response.text(), context);
  if (envelope.kind !== "error") throw new Error(`${context}: expected an error`);
  return envelope.error;
}

async function proKeyLimitedTo(entries: string[]) {
  const user = await createUser(database.db, "pro");
  const key = await createKeyFor(database.db, user.id);
  await database.db.apiKey.update({ where: { id: key.id }, data: { allowedCidrs: entries } });
  return { user, ...key };
}

describe.each(MOUNTS)("a key's IP allowlist under %s's mount", (mountName, mount) => {
  it("refuses a request from another address with 403 naming it, uncounted, and admits allowed addresses", async () => {
    startServicesAt("2026-11-24T11:00:05Z");
    const call = mount();
    const { secret } = await proKeyLimitedTo(["10.0.0.0/8"]);

    const refused = await call("/v1/opportunities", secret, "192.0.2.44");
    expect(refused.status).toBe(403);
    expect(refused.headers.get("x-ratelimit-limit"), "decided before the limit").toBeNull();
    expect(await errorOf(refused, `${mountName} refused`)).toEqual({
      code: "FORBIDDEN",
      message: "The request's address (192.0.2.44) is not in this API key's IP allowlist",
    });

    for (const address of ["10.1.2.3", "::ffff:10.200.0.9"]) {
      const allowed = await call("/v1/auth/verify", secret, address);
      expect(allowed.status, address).toBe(200);
    }
    // The refusal used none of the key's minute: two admitted requests, two counted.
    const third = await call("/v1/auth/verify", secret, "10.9.9.9");
    expect(third.headers.get("x-ratelimit-remaining")).toBe(String(Number(third.headers.get("x-ratelimit-limit")) - 3));

    // /v1/auth/verify, open to any valid key, and unknown paths refuse the address too.
    expect((await call("/v1/auth/verify", secret, "192.0.2.44")).status).toBe(403);
    expect((await call("/v1/no-such-path", secret, "192.0.2.44")).status).toBe(403);

    // Nor are refusals the owner's usage: only the three admitted requests were recorded.
    await services.usage.flush();
    const usage = await database.db.apiUsageHourly.findMany({ where: { key: { prefix: { startsWith: secret.slice(0, 20) } } } });
    expect(usage.reduce((n, row) => n + row.successes + row.clientErrors + row.rateLimited + row.serverErrors, 0)).toBe(3);
  });

  it("refuses a request whose address is unknown", async () => {
    startServices();
    const call = mount();
    const { secret } = await proKeyLimitedTo(["0.0.0.0/0", "::/0"]);
    const refused = await call("/v1/auth/verify", secret, undefined);
    expect(refused.status).toBe(403);
    expect((await errorOf(refused, "no address")).message).toBe(addressNotAllowedMessage(undefined));
  });

  it("lets a key without an allowlist in from anywhere", async () => {
    startServices();
    const call = mount();
    const user = await createUser(database.db, "pro");
    const { secret } = await createKeyFor(database.db, user.id);
    for (const address of ["192.0.2.44", "2001:db8::1", undefined]) expect((await call("/v1/auth/verify", secret, address)).status).toBe(200);
  });

  it("answers 401 for a key once its expiry has passed, also while it is cached", async () => {
    startServicesAt("2026-11-24T12:00:05Z");
    const call = mount();
    const user = await createUser(database.db, "pro");
    const expired = await createKeyFor(database.db, user.id, { expiresAt: new Date("2026-11-24T12:00:00Z") });
    const expiring = await createKeyFor(database.db, user.id, { expiresAt: new Date("2026-11-24T12:00:30Z") });

    const refused = await call("/v1/auth/verify", expired.secret, "192.0.2.1");
    expect(refused.status).toBe(401);
    expect(await errorOf(refused, "expired")).toEqual({ code: "UNAUTHORIZED", message: "Invalid or missing API key: the key is unknown, revoked or expired" });

    const before = await call("/v1/auth/verify", expiring.secret, "192.0.2.1");
    expect(before.status).toBe(200);
    expect(((await before.json()) as { data: { expires_at: string } }).data.expires_at).toBe("2026-11-24T12:00:30.000Z");
    vi.setSystemTime(new Date("2026-11-24T12:00:30Z"));
    expect((await call("/v1/auth/verify", expiring.secret, "192.0.2.1")).status).toBe(401);
    expect((await listKeys(keyServices, signedIn(user))).map((key) => key.status)).toEqual(["expired", "expired"]);
  });
});

describe("editing a key's IP allowlist", () => {
  it("applies at once to a key the verifier has cached, and records it in the audit trail", async () => {
    startServices();
    const call = serverMount();
    const { user, id, secret } = await proKeyLimitedTo(["10.0.0.0/8"]);
    expect((await call("/v1/auth/verify", secret, "10.0.0.7")).status).toBe(200); // cached from here on
    expect((await call("/v1/auth/verify", secret, "198.51.100.7")).status).toBe(403);

    const input = await readJson(jsonRequest({ allowed_ips: ["198.51.100.0/24", " 2001:DB8::/32 "] }), updateAllowlistSchema);
    const view = await setKeyAllowlist(keyServices, signedIn(user), id, input.allowed_ips, origin);
    expect(view.allowed_ips).toEqual(["198.51.100.0/24", "2001:db8::/32"]);
    expect((await call("/v1/auth/verify", secret, "198.51.100.7")).status).toBe(200);
    expect((await call("/v1/auth/verify", secret, "2001:db8:1::5")).status).toBe(200);
    expect((await call("/v1/auth/verify", secret, "10.0.0.7")).status).toBe(403);

    await setKeyAllowlist(keyServices, signedIn(user), id, [], origin);
    expect((await call("/v1/auth/verify", secret, "10.0.0.7")).status).toBe(200);
    const events = await database.db.auditEvent.findMany({ where: { target: id }, orderBy: { at: "asc" } });
    expect(events.map((event) => [event.action, event.ip])).toEqual([
      ["key.allowlist_changed", origin.ip],
      ["key.allowlist_changed", origin.ip],
    ]);
    // Saving the same list again changes nothing and records nothing.
    await setKeyAllowlist(keyServices, signedIn(user), id, [], origin);
    expect(await database.db.auditEvent.count({ where: { target: id } })).toBe(2);
  });

  it("refuses an invalid entry with a 400 naming it, and too many entries", async () => {
    const problem = async (body: unknown) => {
      const error = await appErrorFrom(readJson(jsonRequest(body), updateAllowlistSchema));
      expect(error.status).toBe(400);
      return error.extra.details;
    };
    expect(await problem({ allowed_ips: ["10.0.0.0/8", "10.0.0.1/8"] })).toEqual([
      {
        field: "allowed_ips",
        message: '"10.0.0.1/8" has bits set after its /8 prefix: write 10.0.0.0/8 for the range, or 10.0.0.1 for the one address',
      },
    ]);
    expect((await problem({ allowed_ips: ["office"] }))![0]!.message).toBe('"office" is not an IPv4 or IPv6 address or CIDR range');
    expect((await problem({ allowed_ips: Array.from({ length: 33 }, (_, i) => `192.0.2.${i}`) }))![0]!.message).toContain("at most 32 entries");
    expect((await problem({}))![0]!.field).toBe("allowed_ips");
  });

  it("is scoped to the owner and to active keys", async () => {
    const owner = await createUser(database.db, "pro");
    const other = await createUser(database.db, "pro");
    const { id } = await createKeyFor(database.db, owner.id);
    await expect(setKeyAllowlist(keyServices, signedIn(other), id, ["10.0.0.0/8"], origin)).rejects.toMatchObject({ code: "NOT_FOUND" });
    await revokeKey(keyServices, signedIn(owner), id, origin);
    await expect(setKeyAllowlist(keyServices, signedIn(owner), id, ["10.0.0.0/8"], origin)).rejects.toMatchObject({ code: "VALIDATION_ERROR" });
    expect((await database.db.apiKey.findUniqueOrThrow({ where: { id } })).allowedCidrs).toEqual([]);
  });
});

describe("an allowlist set at creation", () => {
  it("is stored canonically, shown on the key, and kept by a roll", async () => {
    const created = await database.db.user.create({
      data: { email: `allowlist-${Date.now()}@api.test`, passwordHash: "not-used", tier: "PRO", emailVerifiedAt: new Date() },
    });
    const user = signedIn(created);
    const input = await readJson(
      jsonRequest({ name: "office bot", mode: "live", permissions: ["opportunities:read"], expiry: { kind: "never" }, allowed_ips: ["::ffff:192.0.2.7", "10.0.0.0/8"] }),
      createKeySchema,
    );
    const { view } = await createKey(keyServices, user, input, origin);
    expect(view.allowed_ips).toEqual(["192.0.2.7", "10.0.0.0/8"]);
    const rolled = await rollKey(keyServices, user, view.id, "none", origin);
    expect(rolled.view.allowed_ips).toEqual(["192.0.2.7", "10.0.0.0/8"]);
    // Without the field, a key accepts any address.
    const plain = createKeySchema.parse({ name: "k", mode: "test", permissions: ["opportunities:read"], expiry: { kind: "never" } });
    expect(plain.allowed_ips).toEqual([]);
  });
});

describe("refusals by an allowlist, per address", () => {
  it("are throttled like failed authentications, and leave other addresses alone", async () => {
    startServicesAt("2026-11-24T13:00:05Z");
    const call = serverMount();
    const { secret } = await proKeyLimitedTo(["10.0.0.0/8"]);
    const stranger = "198.51.100.66";
    for (let i = 0; i < FAILED_AUTH_LIMIT; i++) expect((await call("/v1/auth/verify", secret, stranger)).status).toBe(403);
    const throttled = await call("/v1/auth/verify", secret, stranger);
    expect(throttled.status).toBe(429);
    expect((await errorOf(throttled, "throttled")).code).toBe("RATE_LIMITED");
    expect((await call("/v1/auth/verify", secret, "10.0.0.5")).status).toBe(200);
  });
});

function jsonRequest(body: unknown) {
  return new Request("http://localhost/api/account/keys", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
}
