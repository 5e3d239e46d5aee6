import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { searchUsers, SEARCH_LIMIT } from "@/lib/admin/search-users";
import { tierCounts } from "@/lib/admin/tier-counts";
import { AppError } from "@/lib/errors";
import { recordAudit } from "@/lib/audit";
import { billingProvider, type BillingProvider } from "@/lib/billing/billing-provider";
import { changeTier, changeTierSchema } from "@/lib/billing/change-tier";
import { demoBillingProvider } from "@/lib/billing/demo-provider";
import type { Db } from "@/lib/db";
import type { OpenDatabase } from "@/lib/db/open-database";
import { createKey } from "@/lib/keys/account-keys";
import { effectivePermissions, tierToDb, type Tier } from "@/lib/keys/permissions";
import { AUDIT_TRAIL_LIMIT, auditTrail } from "@/lib/security/audit-trail";
import { dbServices, signedIn } from "@/tests/support/api-fixtures";
import { createTestDatabase } from "@/tests/support/test-database";
import { testDatabaseForFile } from "@/tests/support/test-database-for-file";

const origin = { ip: "203.0.113.7", userAgent: "vitest" };
const HOUR = 60 * 60 * 1000;

let database: OpenDatabase;
let db: Db;
beforeAll(async () => {
  database = await createTestDatabase();
  db = database.db;
});
afterAll(() => database?.close());

async function makeUser(email: string, tier: Tier = "free") {
  return db.user.create({ data: { email, passwordHash: "not-a-real-hash", tier: tierToDb(tier), emailVerifiedAt: new Date() } });
}

async function makeKey(userId: string, fields: { revokedAt?: Date | null; expiresAt?: Date | null } = {}) {
  return db.apiKey.create({
    data: {
      userId,
      name: "bot",
      mode: "LIVE",
      prefix: "svc_sk_live_AAAAAAAA…",
      hash: randomBytes(32).toString("hex"),
      permissions: ["opportunities:read"],
      ...fields,
    },
  });
}

describe("billing provider selection", () => {
  it("is the demo provider when BILLING_PROVIDER is unset, empty or demo", () => {
    expect(billingProvider({}).id).toBe("demo");
    expect(billingProvider({ BILLING_PROVIDER: "" }).id).toBe("demo");
    expect(billingProvider({ BILLING_PROVIDER: "demo" })).toBe(demoBillingProvider);
  });

  it("refuses a provider it does not know, naming the variable and the value", () => {
    expect(() => billingProvider({ BILLING_PROVIDER: "paypal" })).toThrow(/BILLING_PROVIDER "paypal".*supported: demo, stripe/);
    expect(() => billingProvider({ BILLING_PROVIDER: "toString" })).toThrow(/BILLING_PROVIDER "toString"/);
  });

  it("demo applies a change at once, for nothing, and says so", async () => {
    const before = Date.now();
    const result = await demoBillingProvider.changeTier({ id: "u", email: "u@example.com", tier: "free" }, "desk", origin);
    expect(result.tier).toBe("desk");
    expect(result.appliedAt.getTime()).toBeGreaterThanOrEqual(before);
    expect(result.appliedAt.getTime()).toBeLessThanOrEqual(Date.now());
    expect(demoBillingProvider.describe()).toBe("Demo billing: plan changes apply immediately and nothing is charged.");
  });
});

describe("the plan request body", () => {
  it("accepts exactly one known tier", () => {
    expect(changeTierSchema.parse({ tier: "pro" })).toEqual({ tier: "pro" });
    expect(changeTierSchema.safeParse({ tier: "enterprise" }).error?.issues[0]?.message).toBe("Tier must be one of free, pro or desk");
    expect(changeTierSchema.safeParse({ tier: "PRO" }).success).toBe(false);
    expect(changeTierSchema.safeParse({ tier: "pro", price: 0 }).success).toBe(false);
    expect(changeTierSchema.safeParse({}).success).toBe(false);
  });
});

describe("changeTier", () => {
  it("moves the account to the new tier and audits it as the user's own change", async () => {
    const user = await makeUser("upgrader@example.com", "pro");
    const change = await changeTier(db, { userId: user.id }, { userId: user.id, tier: "desk" }, origin);
    expect(change).toMatchObject({ userId: user.id, previousTier: "pro", tier: "desk", changed: true });
    expect((await db.user.findUniqueOrThrow({ where: { id: user.id } })).tier).toBe("DESK");
    const events = await db.auditEvent.findMany({ where: { actorId: user.id } });
    expect(events).toEqual([
      expect.objectContaining({ action: "tier.changed", target: "pro -> desk", ip: origin.ip, userAgent: origin.userAgent }),
    ]);
  });

  it("records an operator's change under the operator, naming whose plan moved", async () => {
    const operator = await makeUser("ops@example.com");
    const user = await makeUser("customer@example.com", "free");
    await changeTier(db, { userId: operator.id }, { userId: user.id, tier: "pro" }, origin);
    expect((await db.user.findUniqueOrThrow({ where: { id: user.id } })).tier).toBe("PRO");
    expect(await db.auditEvent.findMany({ where: { actorId: user.id } })).toEqual([]);
    const events = await db.auditEvent.findMany({ where: { actorId: operator.id } });
    expect(events.map((e) => [e.action, e.target])).toEqual([["tier.changed", "customer@example.com: free -> pro"]]);
  });

  it("changes and records nothing when the account is already on that tier", async () => {
    const user = await makeUser("steady@example.com", "pro");
    const provider: BillingProvider = { ...demoBillingProvider, changeTier: vi.fn(demoBillingProvider.changeTier) };
    const change = await changeTier(db, { userId: user.id }, { userId: user.id, tier: "pro" }, origin, provider);
    expect(change).toMatchObject({ previousTier: "pro", tier: "pro", changed: false });
    expect(provider.changeTier).not.toHaveBeenCalled();
    expect(await db.auditEvent.count({ where: { actorId: user.id } })).toBe(0);
  });

  it("asks the provider, and records what the provider applied", async () => {
    const user = await makeUser("billed@example.com", "free");
    const declining: BillingProvider = {
      id: "declining",
      describe: () => "declines everything",
      changeTier: vi.fn(async (customer) => ({ tier: customer.tier, appliedAt: new Date() })),
    };
    const change = await changeTier(db, { userId: user.id }, { userId: user.id, tier: "desk" }, origin, declining);
    expect(declining.changeTier).toHaveBeenCalledWith({ id: user.id, email: "billed@example.com", tier: "free" }, "desk", origin);
    expect(change).toMatchObject({ tier: "free", changed: false });
    expect((await db.user.findUniqueOrThrow({ where: { id: user.id } })).tier).toBe("FREE");
    expect(await db.auditEvent.count({ where: { actorId: user.id } })).toBe(0);
  });

  it("answers NOT_FOUND for an account that does not exist, writing nothing", async () => {
    const operator = await makeUser("ops2@example.com");
    const attempt = changeTier(db, { userId: operator.id }, { userId: "no-such-user", tier: "pro" }, origin);
    await expect(attempt).rejects.toBeInstanceOf(AppError);
    await expect(attempt).rejects.toMatchObject({ code: "NOT_FOUND", status: 404 });
    expect(await db.auditEvent.count({ where: { actorId: operator.id } })).toBe(0);
  });

  it("leaves every API key row exactly as it was on a downgrade; only what keys may do narrows", async () => {
    const user = await makeUser("downgrader@example.com", "desk");
    const writer = await createKey(dbServices(db), signedIn(user), { name: "writer", mode: "live", permissions: ["opportunities:read", "write"], expiry: { kind: "never" } }, origin);
    const reader = await createKey(dbServices(db), signedIn(user), { name: "reader", mode: "test", permissions: ["portfolio:read"], expiry: { kind: "days", days: 30 } }, origin);
    const snapshot = await db.apiKey.findMany({ where: { userId: user.id }, orderBy: { id: "asc" } });
    expect(snapshot).toHaveLength(2);

    await changeTier(db, { userId: user.id }, { userId: user.id, tier: "pro" }, origin);
    const afterPro = await db.apiKey.findMany({ where: { userId: user.id }, orderBy: { id: "asc" } });
    expect(afterPro).toEqual(snapshot);
    const writerRow = afterPro.find((k) => k.id === writer.view.id)!;
    expect(effectivePermissions(writerRow.permissions, "pro")).toEqual(["opportunities:read"]);

    await changeTier(db, { userId: user.id }, { userId: user.id, tier: "free" }, origin);
    const afterFree = await db.apiKey.findMany({ where: { userId: user.id }, orderBy: { id: "asc" } });
    expect(afterFree).toEqual(snapshot);
    expect(effectivePermissions(afterFree.find((k) => k.id === reader.view.id)!.permissions, "free")).toEqual([]);

    const trail = await db.auditEvent.findMany({ where: { actorId: user.id, action: "tier.changed" }, orderBy: { at: "asc" } });
    expect(trail.map((e) => e.target)).toEqual(["desk -> pro", "pro -> free"]);
  });
});

describe("operator console queries", () => {
  const own = testDatabaseForFile();

  it("counts users by tier and keys that authenticate now by their owner's tier", async () => {
    const now = new Date();
    const past = new Date(now.getTime() - HOUR);
    const future = new Date(now.getTime() + HOUR);
    const mk = (email: string, tier: Tier) => own.db.user.create({ data: { email, passwordHash: "x", tier: tierToDb(tier) } });
    const key = (userId: string, fields: { revokedAt?: Date; expiresAt?: Date } = {}) =>
      own.db.apiKey.create({
        data: { userId, name: "k", mode: "LIVE", prefix: "p", hash: randomBytes(32).toString("hex"), permissions: [], ...fields },
      });

    expect(await tierCounts(own.db, now)).toEqual({ users: { free: 0, pro: 0, desk: 0 }, activeKeys: { free: 0, pro: 0, desk: 0 } });

    const free = await mk("f@example.com", "free");
    await mk("f2@example.com", "free");
    const pro = await mk("p@example.com", "pro");
    const desk = await mk("d@example.com", "desk");
    await mk("d2@example.com", "desk");
    await mk("d3@example.com", "desk");

    await key(free.id); // a key left from before a downgrade is still active, under Free
    await key(pro.id);
    await key(pro.id, { revokedAt: future }); // rolled, in its grace period
    await key(pro.id, { revokedAt: past });
    await key(pro.id, { expiresAt: past });
    await key(desk.id, { expiresAt: future });
    await key(desk.id, { revokedAt: now }); // revoked at this very moment: no longer active

    expect(await tierCounts(own.db, now)).toEqual({ users: { free: 2, pro: 1, desk: 3 }, activeKeys: { free: 1, pro: 2, desk: 1 } });
    // Once the grace period is over the rolled key stops counting, with nothing written.
    expect((await tierCounts(own.db, new Date(future.getTime() + 1))).activeKeys).toEqual({ free: 1, pro: 1, desk: 0 });
  });

  it("finds users by any part of their e-mail, ignoring case, with their keys and each key's status", async () => {
    const alice = await own.db.user.create({ data: { email: "alice.trader@fund.example", passwordHash: "x", tier: "PRO" } });
    await own.db.user.create({ data: { email: "bob@desk.example", passwordHash: "x" } });
    const now = new Date();
    const rolled = await own.db.apiKey.create({
      data: { userId: alice.id, name: "old", mode: "LIVE", prefix: "svc_sk_live_Old00000…", hash: randomBytes(32).toString("hex"), permissions: ["opportunities:read"], createdAt: new Date(now.getTime() - 2 * HOUR), revokedAt: new Date(now.getTime() + HOUR) },
    });
    const revoked = await own.db.apiKey.create({
      data: { userId: alice.id, name: "gone", mode: "TEST", prefix: "svc_sk_test_Gone0000…", hash: randomBytes(32).toString("hex"), permissions: [], createdAt: new Date(now.getTime() - HOUR), revokedAt: new Date(now.getTime() - 1000) },
    });

    const result = await searchUsers(own.db, "  TRADER@Fund ", now);
    expect(result.query).toBe("TRADER@Fund");
    expect(result.total).toBe(1);
    expect(result.users).toHaveLength(1);
    const [found] = result.users;
    expect(found).toMatchObject({ id: alice.id, email: "alice.trader@fund.example", tier: "pro", createdAt: alice.createdAt });
    expect(found!.keys.map((k) => [k.id, k.name, k.prefix, k.mode, k.status])).toEqual([
      [revoked.id, "gone", "svc_sk_test_Gone0000…", "test", "revoked"],
      [rolled.id, "old", "svc_sk_live_Old00000…", "live", "active"],
    ]);
    expect(found!.keys[0]).not.toHaveProperty("hash");

    expect((await searchUsers(own.db, ".example", now)).users.map((u) => u.email)).toEqual([
      "alice.trader@fund.example",
      "bob@desk.example",
    ]);
    expect(await searchUsers(own.db, "   ", now)).toEqual({ query: "", users: [], total: 0 });
    expect((await searchUsers(own.db, "carol", now)).total).toBe(0);
  });

  it("takes % and _ literally rather than as wildcards", async () => {
    await own.db.user.create({ data: { email: "under_score@wild.example", passwordHash: "x" } });
    await own.db.user.create({ data: { email: "underXscore@wild.example", passwordHash: "x" } });
    expect((await searchUsers(own.db, "under_score")).users.map((u) => u.email)).toEqual(["under_score@wild.example"]);
    expect((await searchUsers(own.db, "%")).total).toBe(0);
    expect((await searchUsers(own.db, "_")).total).toBe(1);
  });

  it("lists at most SEARCH_LIMIT users but reports how many match", async () => {
    await own.db.user.createMany({
      data: Array.from({ length: SEARCH_LIMIT + 3 }, (_, i) => ({ email: `bulk${String(i).padStart(3, "0")}@many.example`, passwordHash: "x" })),
    });
    const result = await searchUsers(own.db, "@MANY.");
    expect(result.total).toBe(SEARCH_LIMIT + 3);
    expect(result.users).toHaveLength(SEARCH_LIMIT);
    expect(result.users[0]?.email).toBe("bulk000@many.example");
  });
});

describe("the security page's audit trail", () => {
  it("shows only the user's own events, newest first, in plain words with keys named", async () => {
    const user = await makeUser("watcher@example.com", "desk");
    const other = await makeUser("stranger@example.com", "desk");
    const base = Date.now() - 10 * HOUR;
    let step = 0;
    const at = () => new Date(base + ++step * 60_000);
    await db.auditEvent.create({ data: { actorId: user.id, action: "account.created", target: user.id, ip: "198.51.100.1", userAgent: "Firefox", at: at() } });
    await db.auditEvent.create({ data: { actorId: user.id, action: "sign_in", target: user.id, ip: "198.51.100.1", userAgent: "Firefox", at: at() } });
    const key = await makeKey(user.id);
    await db.auditEvent.create({ data: { actorId: user.id, action: "key.created", target: key.id, at: at() } });
    await db.auditEvent.create({ data: { actorId: user.id, action: "tier.changed", target: "desk -> pro", at: at() } });
    await db.auditEvent.create({ data: { actorId: other.id, action: "sign_in", target: other.id, at: at() } });
    await db.auditEvent.create({ data: { actorId: user.id, action: "key.rolled", target: `${key.id} -> missing-key`, at: at() } });

    const trail = await auditTrail(db, user.id);
    expect(trail.total).toBe(5);
    expect(trail.entries.map((e) => [e.label, e.target])).toEqual([
      ["API key rolled (replaced by a new key)", "“bot” svc_sk_live_AAAAAAAA… → key missing-key"],
      ["Plan changed", "Desk → Pro"],
      ["API key created", "“bot” svc_sk_live_AAAAAAAA…"],
      ["Signed in", null],
      ["Account created", null],
    ]);
    expect(trail.entries[3]).toMatchObject({ ip: "198.51.100.1", userAgent: "Firefox", action: "sign_in" });
  });

  it("names the account an operator acted on in the operator's own trail", async () => {
    const operator = await makeUser("trail-ops@example.com");
    const customer = await makeUser("trail-customer@pro.example", "pro");
    const key = await makeKey(customer.id);
    await changeTier(db, { userId: operator.id }, { userId: customer.id, tier: "desk" }, origin);
    await recordAudit(db, { actorId: operator.id, subjectId: customer.id, action: "key.revoked", target: key.id }, origin);
    const trail = await auditTrail(db, operator.id);
    expect(trail.entries.map((e) => e.target)).toEqual([
      "“bot” svc_sk_live_AAAAAAAA… of trail-customer@pro.example",
      "trail-customer@pro.example: Pro → Desk",
    ]);
    // The customer sees both too, as done by an operator.
    const own = await auditTrail(db, customer.id);
    expect(own.entries.slice(0, 2).map((e) => e.label)).toEqual(["API key revoked by an operator", "Plan changed by an operator"]);
  });

  it("caps the list at the latest AUDIT_TRAIL_LIMIT events and reports the total", async () => {
    const user = await makeUser("busy@example.com");
    const base = Date.now() - 1000 * 60_000;
    await db.auditEvent.createMany({
      data: Array.from({ length: AUDIT_TRAIL_LIMIT + 5 }, (_, i) => ({ actorId: user.id, action: "sign_in", at: new Date(base + i * 60_000) })),
    });
    const trail = await auditTrail(db, user.id);
    expect(trail.total).toBe(AUDIT_TRAIL_LIMIT + 5);
    expect(trail.entries).toHaveLength(AUDIT_TRAIL_LIMIT);
    expect(trail.entries[0]?.at).toEqual(new Date(base + (AUDIT_TRAIL_LIMIT + 4) * 60_000));
    expect(trail.entries.at(-1)?.at).toEqual(new Date(base + 5 * 60_000));
  });
});
