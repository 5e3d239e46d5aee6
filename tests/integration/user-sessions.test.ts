import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hashPassword, verifyPassword } from "@/lib/accounts/passwords";
import { changePassword } from "@/lib/accounts/change-password";
import {
  createUserSession,
  endOwnSession,
  listActiveSessions,
  revokeSessions,
  SESSION_IDLE_TIMEOUT_MS,
  SESSION_LIFETIME_MS,
  SESSION_TOUCH_INTERVAL_MS,
  signOutEverywhere,
  signOutSession,
  touchUserSession,
} from "@/lib/accounts/user-sessions";
import type { OpenDatabase } from "@/lib/db/open-database";
import { AppError } from "@/lib/errors";
import { createTestDatabase } from "@/tests/support/test-database";
import { appErrorFrom } from "@/tests/support/app-error";

let database: OpenDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database?.close());

const PASSWORD = "a long enough password";
const origin = { ip: "198.51.100.9", userAgent: "vitest" };
let userCounter = 0;

async function user() {
  return database.db.user.create({
    data: { email: `sessions-${++userCounter}@example.com`, passwordHash: await hashPassword(PASSWORD) },
    select: { id: true, email: true },
  });
}

const thrown = (promise: Promise<unknown>) => appErrorFrom(promise);

const at = (base: Date, ms: number) => new Date(base.getTime() + ms);

describe("browser sessions", () => {
  it("last 7 days at most and end after 24 hours idle", () => {
    expect(SESSION_LIFETIME_MS).toBe(7 * 24 * 3600_000);
    expect(SESSION_IDLE_TIMEOUT_MS).toBe(24 * 3600_000);
  });

  it("are recorded at sign-in with the client's address and browser, and admit their cookie", async () => {
    const owner = await user();
    const { id } = await createUserSession(database.db, owner.id, { ip: "203.0.113.4", userAgent: "Firefox\u0000/1" });
    const row = await database.db.userSession.findUniqueOrThrow({ where: { id } });
    expect(row).toMatchObject({ userId: owner.id, ip: "203.0.113.4", userAgent: "Firefox/1", revokedAt: null });
    expect(row.expiresAt.getTime() - row.createdAt.getTime()).toBe(SESSION_LIFETIME_MS);
    expect(await touchUserSession(database.db, id, owner.id)).toBe(true);
  });

  it("refuse a cookie naming another user's session or no session", async () => {
    const [owner, other] = [await user(), await user()];
    const { id } = await createUserSession(database.db, owner.id);
    expect(await touchUserSession(database.db, id, other.id)).toBe(false);
    expect(await touchUserSession(database.db, "c000000000000000000000000", owner.id)).toBe(false);
  });

  it("end after the idle timeout and after their lifetime, however active", async () => {
    const owner = await user();
    const start = new Date();
    const idle = await createUserSession(database.db, owner.id, {}, start);
    expect(await touchUserSession(database.db, idle.id, owner.id, at(start, SESSION_IDLE_TIMEOUT_MS - 60_000))).toBe(true);
    // Used just before the timeout, so the idle clock started again.
    expect(await touchUserSession(database.db, idle.id, owner.id, at(start, SESSION_IDLE_TIMEOUT_MS + 60_000))).toBe(true);
    expect(await touchUserSession(database.db, idle.id, owner.id, at(start, 2 * SESSION_IDLE_TIMEOUT_MS + 60_000))).toBe(false);

    const busy = await createUserSession(database.db, owner.id, {}, start);
    for (let hours = 12; hours < 7 * 24; hours += 12) {
      expect(await touchUserSession(database.db, busy.id, owner.id, at(start, hours * 3600_000))).toBe(true);
    }
    expect(await touchUserSession(database.db, busy.id, owner.id, at(start, SESSION_LIFETIME_MS))).toBe(false);
  });

  it("record use at most once a minute", async () => {
    const owner = await user();
    const start = new Date();
    const { id } = await createUserSession(database.db, owner.id, {}, start);
    const lastSeen = async () => (await database.db.userSession.findUniqueOrThrow({ where: { id } })).lastSeenAt.getTime();
    await touchUserSession(database.db, id, owner.id, at(start, SESSION_TOUCH_INTERVAL_MS - 1));
    expect(await lastSeen()).toBe(start.getTime());
    await touchUserSession(database.db, id, owner.id, at(start, SESSION_TOUCH_INTERVAL_MS));
    expect(await lastSeen()).toBe(start.getTime() + SESSION_TOUCH_INTERVAL_MS);
    await touchUserSession(database.db, id, owner.id, at(start, SESSION_TOUCH_INTERVAL_MS + 30_000));
    expect(await lastSeen()).toBe(start.getTime() + SESSION_TOUCH_INTERVAL_MS);
  });

  it("revokeSessions ends every live session but the one kept, only of that user, and counts them", async () => {
    const [owner, other] = [await user(), await user()];
    const [keep, a, b] = [
      await createUserSession(database.db, owner.id),
      await createUserSession(database.db, owner.id),
      await createUserSession(database.db, owner.id),
    ];
    const bystander = await createUserSession(database.db, other.id);
    expect(await revokeSessions(database.db, owner.id, { except: keep.id })).toBe(2);
    expect(await touchUserSession(database.db, keep.id, owner.id)).toBe(true);
    expect(await touchUserSession(database.db, a.id, owner.id)).toBe(false);
    expect(await touchUserSession(database.db, b.id, owner.id)).toBe(false);
    expect(await touchUserSession(database.db, bystander.id, other.id)).toBe(true);
    // Already revoked sessions are not counted again; without `except` the kept one ends too.
    expect(await revokeSessions(database.db, owner.id)).toBe(1);
    expect(await touchUserSession(database.db, keep.id, owner.id)).toBe(false);
  });

  it("list the active sessions, newest use first, marking this one", async () => {
    const owner = await user();
    const now = new Date();
    const old = await createUserSession(database.db, owner.id, { ip: "203.0.113.1" }, at(now, -2 * 3600_000));
    const current = await createUserSession(database.db, owner.id, { ip: "203.0.113.2" }, now);
    await createUserSession(database.db, owner.id, {}, at(now, -SESSION_IDLE_TIMEOUT_MS - 1000));
    const ended = await createUserSession(database.db, owner.id, {}, now);
    await signOutSession(database.db, { id: owner.id, sessionId: current.id }, ended.id, origin);
    const list = await listActiveSessions(database.db, owner.id, current.id, now);
    expect(list.map((s) => [s.id, s.current, s.ip])).toEqual([
      [current.id, true, "203.0.113.2"],
      [old.id, false, "203.0.113.1"],
    ]);
  });

  it("sign out one session, another user's being not found, and audit it", async () => {
    const [owner, other] = [await user(), await user()];
    const mine = await createUserSession(database.db, owner.id);
    const theirs = await createUserSession(database.db, other.id);
    const error = await thrown(signOutSession(database.db, { id: owner.id, sessionId: mine.id }, theirs.id, origin));
    expect(error.code).toBe("NOT_FOUND");
    expect(await touchUserSession(database.db, theirs.id, other.id)).toBe(true);
    expect(await signOutSession(database.db, { id: owner.id, sessionId: mine.id }, mine.id, origin)).toEqual({ id: mine.id, current: true });
    expect(await touchUserSession(database.db, mine.id, owner.id)).toBe(false);
    expect(await database.db.auditEvent.count({ where: { subjectId: owner.id, action: "session.revoked" } })).toBe(1);
  });

  it("sign out everywhere, and sign-out from the browser itself, audited", async () => {
    const owner = await user();
    const sessions = [await createUserSession(database.db, owner.id), await createUserSession(database.db, owner.id)];
    expect(await signOutEverywhere(database.db, owner.id, origin)).toEqual({ revoked: 2 });
    for (const { id } of sessions) expect(await touchUserSession(database.db, id, owner.id)).toBe(false);

    const again = await createUserSession(database.db, owner.id, { ip: "203.0.113.8", userAgent: "Safari" });
    await endOwnSession(database.db, owner.id, again.id);
    await endOwnSession(database.db, owner.id, again.id);
    expect(await touchUserSession(database.db, again.id, owner.id)).toBe(false);
    const events = await database.db.auditEvent.findMany({ where: { subjectId: owner.id }, orderBy: { at: "asc" } });
    expect(events.map((e) => [e.action, e.ip])).toEqual([
      ["sessions.revoked", origin.ip],
      ["sign_out", "203.0.113.8"],
    ]);
  });
});

describe("changing the password", () => {
  it("needs the current password, applies sign-up's rules, and changes nothing when refused", async () => {
    const owner = await user();
    const session = await createUserSession(database.db, owner.id);
    const other = await createUserSession(database.db, owner.id);
    const me = { id: owner.id, sessionId: session.id };
    const cases: [unknown, string][] = [
      [{ current_password: "wrong password entirely", new_password: "a brand new passphrase" }, "current_password"],
      [{ current_password: PASSWORD, new_password: "short" }, "new_password"],
      [{ current_password: PASSWORD, new_password: "password1234" }, "new_password"],
      [{ current_password: PASSWORD, new_password: `${owner.email}!` }, "new_password"],
      [{ current_password: PASSWORD, new_password: PASSWORD }, "new_password"],
      [{ new_password: "a brand new passphrase" }, "current_password"],
    ];
    for (const [input, field] of cases) {
      const error = await thrown(changePassword(database.db, me, input, origin));
      expect(error.code, JSON.stringify(input)).toBe("VALIDATION_ERROR");
      expect(error.extra.details?.[0]?.field, JSON.stringify(input)).toBe(field);
    }
    const row = await database.db.user.findUniqueOrThrow({ where: { id: owner.id } });
    expect(await verifyPassword(row.passwordHash, PASSWORD)).toBe(true);
    expect(await touchUserSession(database.db, other.id, owner.id)).toBe(true);
    expect(await database.db.auditEvent.count({ where: { subjectId: owner.id, action: "password.changed" } })).toBe(0);
  });

  it("signs out every other session, keeps this one, and is audited", async () => {
    const owner = await user();
    const mine = await createUserSession(database.db, owner.id);
    const others = [await createUserSession(database.db, owner.id), await createUserSession(database.db, owner.id)];
    const result = await changePassword(
      database.db,
      { id: owner.id, sessionId: mine.id },
      { current_password: PASSWORD, new_password: "a brand new passphrase" },
      origin,
    );
    expect(result).toEqual({ sessionsEnded: 2 });
    expect(await touchUserSession(database.db, mine.id, owner.id)).toBe(true);
    for (const { id } of others) expect(await touchUserSession(database.db, id, owner.id)).toBe(false);
    const row = await database.db.user.findUniqueOrThrow({ where: { id: owner.id } });
    expect(await verifyPassword(row.passwordHash, "a brand new passphrase")).toBe(true);
    expect(await database.db.auditEvent.findMany({ where: { subjectId: owner.id, action: "password.changed" } })).toMatchObject([
      { actorId: owner.id, ip: origin.ip },
    ]);
  });

  it("limits guesses of the current password from a signed-in session", async () => {
    const owner = await user();
    const me = { id: owner.id, sessionId: (await createUserSession(database.db, owner.id)).id };
    const wrong = { current_password: "wrong password entirely", new_password: "a brand new passphrase" };
    let error: AppError | null = null;
    for (let i = 0; i < 10 && error?.code !== "RATE_LIMITED"; i++) error = await thrown(changePassword(database.db, me, wrong, origin));
    expect(error?.code).toBe("RATE_LIMITED");
    // The wait is until the limiter's 15-minute window frees up: anywhere from a second to 15 minutes.
    expect(error!.extra.retryAfter).toBeGreaterThanOrEqual(1);
    expect(error!.extra.retryAfter).toBeLessThanOrEqual(15 * 60);
  });
});
