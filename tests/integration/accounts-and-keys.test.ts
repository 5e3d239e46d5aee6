import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SIGN_UP_ANSWER, signUp, verifyCredentials } from "@/lib/accounts/accounts";
import { SIGN_IN_THROTTLE } from "@/lib/accounts/attempt-limits";
import { actorFromKey, actorFromSession } from "@/lib/actor";
import { AppError } from "@/lib/errors";
import { readJson } from "@/lib/api/read-json";
import type { OpenDatabase } from "@/lib/db/open-database";
import { createKey, createKeySchema, listKeys, revokeAnyKey, revokeKey, rollKey, setKeyAllowlist, UNVERIFIED_LIVE_KEY_MESSAGE } from "@/lib/keys/account-keys";
import { hashApiKey } from "@/lib/keys/hash";
import { planOf } from "@/lib/plans";
import { createTestDatabase } from "@/tests/support/test-database";
import { appErrorFrom } from "@/tests/support/app-error";

let database: OpenDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database?.close());

let ipCounter = 0;
const origin = () => ({ ip: `198.51.100.${++ipCounter}`, userAgent: "vitest" });
const PRO_KEYS = planOf("pro").maxActiveKeys;
const PASSWORD = "a long enough password";
/** What keys' operations need of the services: the test database. */
const keyServices = { db: async () => database.db };

/** Signs up through `signUp` (which answers without naming the account) and returns the stored user. */
async function signUpUser(email: string) {
  await signUp(database.db, { email, password: PASSWORD }, origin());
  return database.db.user.findUniqueOrThrow({ where: { email: email.trim().toLowerCase() } });
}

/** A Pro account, signed in as the account area's routes see it; verified unless told otherwise (live keys need a verified address). */
async function proUser(email: string, { verified = true } = {}) {
  const user = await signUpUser(email);
  await database.db.user.update({ where: { id: user.id }, data: { tier: "PRO", emailVerifiedAt: verified ? new Date() : null } });
  return actorFromSession({ id: user.id, tier: "pro" });
}

async function counts() {
  const [users, keys, events] = await Promise.all([
    database.db.user.count(),
    database.db.apiKey.count(),
    database.db.auditEvent.count(),
  ]);
  return { users, keys, events };
}

function jsonRequest(body: unknown, contentType = "application/json") {
  return new Request("http://localhost/api/account/keys", {
    method: "POST",
    headers: { "content-type": contentType },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
}

const validationError = (promise: Promise<unknown>) => appErrorFrom(promise, "VALIDATION_ERROR");

describe("accounts", () => {
  it("hash passwords with argon2id and never store them", async () => {
    const user = await signUpUser("Ada@Example.com ");
    expect(user.email).toBe("ada@example.com");
    expect(user.emailVerifiedAt).toBeNull();
    expect(user.isOperator).toBe(false);
    const row = await database.db.user.findUniqueOrThrow({ where: { id: user.id } });
    expect(row.passwordHash).toMatch(/^\$argon2id\$/);
    expect(row.passwordHash).not.toContain(PASSWORD);
    expect(row.tier).toBe("FREE");
  });

  it("answer a sign-up with a taken e-mail exactly as a new one, and change nothing", async () => {
    const fresh = await signUp(database.db, { email: "dup@example.com", password: PASSWORD }, origin());
    const before = await counts();
    const again = await signUp(database.db, { email: "DUP@example.com", password: "another long password" }, origin());
    expect(again).toEqual(fresh);
    expect(again.message).toBe(SIGN_UP_ANSWER);
    expect(await counts()).toEqual(before);
  });

  it("refuse short passwords and bad e-mails with field details", async () => {
    const before = await counts();
    const error = await validationError(signUp(database.db, { email: "not-an-email", password: "short" }, origin()));
    expect(error.extra.details?.map((d) => d.field).sort()).toEqual(["email", "password"]);
    expect(await counts()).toEqual(before);
  });

  it("answer a wrong password and an unknown e-mail identically, and audit only real sign-ins", async () => {
    await signUpUser("grace@example.com");
    expect(await verifyCredentials(database.db, { email: "grace@example.com", password: "wrong password!!" }, origin())).toBeNull();
    expect(await verifyCredentials(database.db, { email: "nobody@example.com", password: "wrong password!!" }, origin())).toBeNull();
    const ok = await verifyCredentials(database.db, { email: "grace@example.com", password: PASSWORD }, origin());
    expect(ok?.email).toBe("grace@example.com");
    const signIns = await database.db.auditEvent.findMany({ where: { action: "sign_in" } });
    expect(signIns).toHaveLength(1);
    expect(signIns[0]).toMatchObject({ actorId: ok!.id, userAgent: "vitest", ip: expect.stringMatching(/^198\.51\.100\./) });
  });

  it("slow down sign-in attempts for one account from one address, with a retry time, leaving other addresses alone", async () => {
    await signUpUser("limited@example.com");
    const guesser = origin();
    // However slow password hashing is here, the pair's cap is reached within perPair + 1 attempts.
    let error: AppError | null = null;
    for (let i = 0; i <= SIGN_IN_THROTTLE.perPair && !error; i++) {
      error = await verifyCredentials(database.db, { email: "limited@example.com", password: "wrong password!!" }, guesser).then(
        () => null,
        (e: AppError) => e,
      );
    }
    error = error!;
    expect(error).toBeInstanceOf(AppError);
    expect(error.code).toBe("RATE_LIMITED");
    expect(error.extra.retryAfter).toBeGreaterThanOrEqual(1);
    expect(await verifyCredentials(database.db, { email: "limited@example.com", password: PASSWORD }, origin())).toMatchObject({ email: "limited@example.com" });
  });
});

describe("API keys in the account area", () => {
  it("never leave the secret anywhere in the database", async () => {
    const user = await proUser("secret-search@example.com");
    const input = createKeySchema.parse({ name: "bot", mode: "live", permissions: ["opportunities:read"], expiry: { kind: "never" } });
    const { key, view } = await createKey(keyServices, user, input, origin());
    expect(key).toMatch(/^svc_sk_live_[0-9A-Za-z]{38}$/);
    expect(view.prefix).toBe(`${key.slice(0, 20)}…`);
    expect(JSON.stringify(view)).not.toContain(key.slice(12));

    const tables = await database.db.$queryRaw<{ tablename: string }[]>`
      SELECT tablename FROM pg_tables WHERE schemaname = current_schema()`;
    expect(tables.length).toBeGreaterThanOrEqual(4);
    const secretPart = key.slice("svc_sk_live_".length);
    for (const { tablename } of tables) {
      const rows = await database.db.$queryRawUnsafe<unknown[]>(`SELECT * FROM "${tablename}"`);
      const text = JSON.stringify(rows);
      expect(text, `table ${tablename}`).not.toContain(secretPart);
      expect(text, `table ${tablename}`).not.toContain(secretPart.slice(8, 30));
    }
    const stored = await database.db.apiKey.findUniqueOrThrow({ where: { id: view.id } });
    expect(stored.hash).toBe(hashApiKey(key));
  });

  it.each([
    ["an empty name", { name: "   ", mode: "live", permissions: ["opportunities:read"], expiry: { kind: "never" } }, "name"],
    ["an over-long name", { name: "x".repeat(65), mode: "live", permissions: ["opportunities:read"], expiry: { kind: "never" } }, "name"],
    ["an unknown permission", { name: "k", mode: "live", permissions: ["admin:everything"], expiry: { kind: "never" } }, "permissions.0"],
    ["no permission", { name: "k", mode: "live", permissions: [], expiry: { kind: "never" } }, "permissions"],
    ["an unknown mode", { name: "k", mode: "prod", permissions: ["opportunities:read"], expiry: { kind: "never" } }, "mode"],
    ["a tampered expiry", { name: "k", mode: "live", permissions: ["opportunities:read"], expiry: { kind: "days", days: 3650 } }, "expiry.days"],
    ["an extra field", { name: "k", mode: "live", permissions: ["opportunities:read"], expiry: { kind: "never" }, userId: "someone-else" }, "userId"],
  ])("refuse %s with a field error and store nothing", async (_label, body, field) => {
    const before = await counts();
    const error = await validationError(readJson(jsonRequest(body), createKeySchema));
    expect(error.extra.details?.[0]?.field).toBe(field);
    expect(await counts()).toEqual(before);
  });

  it("refuse malformed JSON and the wrong content type", async () => {
    await validationError(readJson(jsonRequest("{nope"), createKeySchema));
    await validationError(readJson(jsonRequest({ name: "k" }, "text/plain"), createKeySchema));
  });

  it("refuse a permission outside the plan, a past expiry date, and Free accounts", async () => {
    const pro = await proUser("limits@example.com");
    const before = await counts();
    const write = createKeySchema.parse({ name: "k", mode: "live", permissions: ["write"], expiry: { kind: "never" } });
    await validationError(createKey(keyServices, pro, write, origin()));
    const past = createKeySchema.parse({ name: "k", mode: "live", permissions: ["opportunities:read"], expiry: { kind: "date", date: "2001-01-01" } });
    await validationError(createKey(keyServices, pro, past, origin()));
    const free = { ...pro, tier: "free" as const };
    const ok = createKeySchema.parse({ name: "k", mode: "test", permissions: ["opportunities:read"], expiry: { kind: "never" } });
    await expect(createKey(keyServices, free, ok, origin())).rejects.toMatchObject({ code: "FORBIDDEN" });
    expect(await counts()).toEqual(before);
  });

  it(`stop at ${PRO_KEYS} active keys, counting revoked ones out`, async () => {
    const user = await proUser("many-keys@example.com");
    const input = createKeySchema.parse({ name: "k", mode: "test", permissions: ["opportunities:read"], expiry: { kind: "never" } });
    const created = [];
    for (let i = 0; i < PRO_KEYS; i++) created.push(await createKey(keyServices, user, input, origin()));
    await expect(createKey(keyServices, user, input, origin())).rejects.toMatchObject({ code: "FORBIDDEN" });
    await revokeKey(keyServices, user, created[0]!.view.id, origin());
    await expect(createKey(keyServices, user, input, origin())).resolves.toMatchObject({ view: { status: "active" } });
  });

  it("refuse live keys to an account whose e-mail is not verified, and allow test keys", async () => {
    const user = await proUser("unverified-keys@example.com", { verified: false });
    const live = createKeySchema.parse({ name: "k", mode: "live", permissions: ["opportunities:read"], expiry: { kind: "never" } });
    const before = await counts();
    const error = await validationError(createKey(keyServices, user, live, origin()));
    expect(error.extra.details).toEqual([{ field: "mode", message: UNVERIFIED_LIVE_KEY_MESSAGE }]);
    expect(await counts()).toEqual(before);
    const test = createKeySchema.parse({ ...live, mode: "test" });
    await expect(createKey(keyServices, user, test, origin())).resolves.toMatchObject({ view: { mode: "test", status: "active" } });
    await database.db.user.update({ where: { id: user.userId }, data: { emailVerifiedAt: new Date() } });
    await expect(createKey(keyServices, user, live, origin())).resolves.toMatchObject({ view: { mode: "live", status: "active" } });
  });

  it("scope revocation to the owner: another user's key id is not found and stays active", async () => {
    const owner = await proUser("owner@example.com");
    const other = await proUser("other@example.com");
    const input = createKeySchema.parse({ name: "mine", mode: "live", permissions: ["opportunities:read"], expiry: { kind: "never" } });
    const { view } = await createKey(keyServices, owner, input, origin());
    await expect(revokeKey(keyServices, other, view.id, origin())).rejects.toMatchObject({ code: "NOT_FOUND" });
    expect((await listKeys(keyServices, owner))[0]?.status).toBe("active");
    expect(await listKeys(keyServices, other)).toEqual([]);
    const revoked = await revokeKey(keyServices, owner, view.id, origin());
    expect(revoked.status).toBe("revoked");
    const events = await database.db.auditEvent.findMany({ where: { target: view.id }, orderBy: { at: "asc" } });
    expect(events.map((e) => e.action)).toEqual(["key.created", "key.revoked"]);
  });

  it("may be revoked by an operator whatever the account, audited as the operator", async () => {
    const owner = await proUser("customer@example.com");
    const operator = await proUser("operator@example.com");
    const input = createKeySchema.parse({ name: "leaked", mode: "test", permissions: ["opportunities:read"], expiry: { kind: "never" } });
    const { view } = await createKey(keyServices, owner, input, origin());
    await expect(revokeAnyKey(keyServices, operator, view.id, origin())).resolves.toMatchObject({ id: view.id, status: "revoked" });
    const revoked = await database.db.auditEvent.findFirstOrThrow({ where: { target: view.id, action: "key.revoked" } });
    expect(revoked).toMatchObject({ actorId: operator.userId, subjectId: owner.userId });
  });

  it("are managed in person: an actor from an API key may not list, create, change, roll or revoke keys", async () => {
    const user = await proUser("in-person@example.com");
    const input = createKeySchema.parse({ name: "k", mode: "test", permissions: ["opportunities:read"], expiry: { kind: "never" } });
    const { view } = await createKey(keyServices, user, input, origin());
    const byKey = actorFromKey({ id: view.id, userId: user.userId, mode: "test", tier: "pro", permissions: ["opportunities:read"] });
    const attempts = [
      listKeys(keyServices, byKey),
      createKey(keyServices, byKey, input, origin()),
      setKeyAllowlist(keyServices, byKey, view.id, ["10.0.0.0/8"], origin()),
      rollKey(keyServices, byKey, view.id, "none", origin()),
      revokeKey(keyServices, byKey, view.id, origin()),
    ];
    for (const attempt of attempts) await expect(attempt).rejects.toMatchObject({ code: "FORBIDDEN" });
    expect(await listKeys(keyServices, user)).toMatchObject([{ id: view.id, status: "active", allowed_ips: [] }]);
  });

  it("roll a key: a replacement now, the old key revoked when the grace period ends", async () => {
    const user = await proUser("roller@example.com");
    const input = createKeySchema.parse({ name: "rotating", mode: "live", permissions: ["opportunities:read", "portfolio:read"], expiry: { kind: "days", days: 30 } });
    const { view: old } = await createKey(keyServices, user, input, origin());
    const rolled = await rollKey(keyServices, user, old.id, "1h", origin());
    expect(rolled.key).toMatch(/^svc_sk_live_/);
    expect(rolled.view).toMatchObject({ name: "rotating", mode: "live", permissions: ["opportunities:read", "portfolio:read"], status: "active" });
    expect(rolled.previous.status).toBe("active");
    const graceEnd = Date.parse(rolled.previous.revoked_at!);
    expect(graceEnd - Date.now()).toBeGreaterThan(59 * 60_000);
    expect(graceEnd - Date.now()).toBeLessThanOrEqual(60 * 60_000);
    expect(Date.parse(rolled.view.expires_at!) - Date.now()).toBeGreaterThan(29 * 24 * 3600_000);

    const immediate = await rollKey(keyServices, user, rolled.view.id, "none", origin());
    expect(immediate.previous.status).toBe("revoked");
    await expect(rollKey(keyServices, user, rolled.view.id, "1h", origin())).rejects.toMatchObject({ code: "VALIDATION_ERROR" });
  });

  it("refuse to roll a key that is already in its grace period, changing nothing", async () => {
    const user = await proUser("roll-twice@example.com");
    const input = createKeySchema.parse({ name: "twice", mode: "test", permissions: ["opportunities:read"], expiry: { kind: "never" } });
    const { view } = await createKey(keyServices, user, input, origin());
    const rolled = await rollKey(keyServices, user, view.id, "24h", origin());
    const before = await counts();
    const error = await validationError(rollKey(keyServices, user, view.id, "24h", origin()));
    expect(error.message).toBe("This key was already rolled");
    expect(error.extra.details).toEqual([{ field: "id", message: expect.stringContaining("already rolled and is in its grace period") }]);
    expect(await counts()).toEqual(before);
    expect((await database.db.apiKey.findUniqueOrThrow({ where: { id: view.id } })).revokedAt?.toISOString()).toBe(rolled.previous.revoked_at);
    // Two rolls of the same key racing: one wins, the other is refused.
    const again = await createKey(keyServices, user, input, origin());
    const race = await Promise.allSettled([rollKey(keyServices, user, again.view.id, "1h", origin()), rollKey(keyServices, user, again.view.id, "1h", origin())]);
    expect(race.map((r) => r.status).sort()).toEqual(["fulfilled", "rejected"]);
  });

  it(`hold the cap of ${PRO_KEYS} active keys while rolling, counting keys in their grace period`, async () => {
    const user = await proUser("roll-cap@example.com");
    const input = createKeySchema.parse({ name: "k", mode: "test", permissions: ["opportunities:read"], expiry: { kind: "never" } });
    const created = [];
    for (let i = 0; i < PRO_KEYS - 1; i++) created.push(await createKey(keyServices, user, input, origin()));
    // One key short of the cap: one roll with a grace period fits, and fills it.
    const rolled = await rollKey(keyServices, user, created[0]!.view.id, "7d", origin());
    const active = async () => (await listKeys(keyServices, user)).filter((k) => k.status === "active").length;
    expect(await active()).toBe(PRO_KEYS);
    // Every further roll with a grace period is refused.
    for (const key of [...created.slice(1, 8), rolled]) {
      await expect(rollKey(keyServices, user, "view" in key ? key.view.id : key, "1h", origin())).rejects.toMatchObject({
        code: "FORBIDDEN",
        message: expect.stringContaining("keys in a grace period count"),
      });
    }
    await expect(createKey(keyServices, user, input, origin())).rejects.toMatchObject({ code: "FORBIDDEN" });
    expect(await active()).toBe(PRO_KEYS);
    // Rolling with no grace period replaces one key by another and stays within the cap.
    const immediate = await rollKey(keyServices, user, created[1]!.view.id, "none", origin());
    expect(immediate.previous.status).toBe("revoked");
    expect(await active()).toBe(PRO_KEYS);
  });

  it("cap a Pro account's keys so that together they stay within one Desk key's limit", () => {
    expect(PRO_KEYS).toBe(10);
    expect(PRO_KEYS * planOf("pro").requestsPerMinute).toBeLessThanOrEqual(planOf("desk").requestsPerMinute);
    expect(planOf("desk").maxActiveKeys).toBe(25);
    expect(planOf("free").maxActiveKeys).toBe(0);
  });

  it("hold the cap under concurrent creates: each counts the keys the others added", async () => {
    const user = await proUser("racing-creates@example.com");
    const input = createKeySchema.parse({ name: "k", mode: "test", permissions: ["opportunities:read"], expiry: { kind: "never" } });
    for (let i = 0; i < PRO_KEYS - 3; i++) await createKey(keyServices, user, input, origin());
    const race = await Promise.allSettled(Array.from({ length: 15 }, () => createKey(keyServices, user, input, origin())));
    expect(race.filter((r) => r.status === "fulfilled")).toHaveLength(3);
    for (const refused of race.filter((r) => r.status === "rejected")) {
      expect(refused.reason).toMatchObject({ code: "FORBIDDEN", message: expect.stringContaining(`plan allows ${PRO_KEYS} active keys`) });
    }
    expect((await listKeys(keyServices, user)).filter((k) => k.status === "active")).toHaveLength(PRO_KEYS);
  });

  it("hold the cap under concurrent rolls with a grace period", async () => {
    const user = await proUser("racing-rolls@example.com");
    const input = createKeySchema.parse({ name: "k", mode: "test", permissions: ["opportunities:read"], expiry: { kind: "never" } });
    const created = [];
    for (let i = 0; i < PRO_KEYS - 1; i++) created.push(await createKey(keyServices, user, input, origin()));
    const race = await Promise.allSettled(created.slice(0, 8).map((key) => rollKey(keyServices, user, key.view.id, "24h", origin())));
    expect(race.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    expect((await listKeys(keyServices, user)).filter((k) => k.status === "active")).toHaveLength(PRO_KEYS);
  });

  it("after a downgrade to fewer keys than it holds: the keys stay, new ones wait until the account is under the cap", async () => {
    const user = await proUser("downgraded@example.com");
    const desk = { ...user, tier: "desk" as const };
    await database.db.user.update({ where: { id: user.userId }, data: { tier: "DESK" } });
    const input = createKeySchema.parse({ name: "k", mode: "test", permissions: ["opportunities:read"], expiry: { kind: "never" } });
    const created = [];
    for (let i = 0; i < PRO_KEYS + 2; i++) created.push(await createKey(keyServices, desk, input, origin()));
    await database.db.user.update({ where: { id: user.userId }, data: { tier: "PRO" } });
    // The cap is the plan in force, read under the lock, whatever plan the caller's session last saw.
    await expect(createKey(keyServices, desk, input, origin())).rejects.toMatchObject({ code: "FORBIDDEN" });
    const active = async () => (await listKeys(keyServices, user)).filter((k) => k.status === "active").length;
    expect(await active()).toBe(PRO_KEYS + 2);
    await expect(createKey(keyServices, user, input, origin())).rejects.toMatchObject({ code: "FORBIDDEN", message: expect.stringContaining("The Pro plan allows 10 active keys") });
    await expect(rollKey(keyServices, user, created[0]!.view.id, "1h", origin())).rejects.toMatchObject({ code: "FORBIDDEN" });
    // A roll with no grace period adds nothing, so it stays open: a leaked key can always be replaced.
    await expect(rollKey(keyServices, user, created[0]!.view.id, "none", origin())).resolves.toMatchObject({ previous: { status: "revoked" } });
    for (const key of created.slice(1, 3)) await revokeKey(keyServices, user, key.view.id, origin());
    await expect(createKey(keyServices, user, input, origin())).rejects.toMatchObject({ code: "FORBIDDEN" });
    await revokeKey(keyServices, user, created[3]!.view.id, origin());
    await expect(createKey(keyServices, user, input, origin())).resolves.toMatchObject({ view: { status: "active" } });
    expect(await active()).toBe(PRO_KEYS);
  });
});
