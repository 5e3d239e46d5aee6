import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { verifyCredentials } from "@/lib/accounts/accounts";
import { SIGN_IN_THROTTLE, tooManyAttemptsMessage } from "@/lib/accounts/attempt-limits";
import { hashPassword } from "@/lib/accounts/passwords";
import type { OpenDatabase } from "@/lib/db/open-database";
import { AppError } from "@/lib/errors";
import { auditTrail } from "@/lib/security/audit-trail";
import { createTestDatabase } from "@/tests/support/test-database";
import { appErrorFrom } from "@/tests/support/app-error";
import { withRoomInWindow } from "@/tests/support/fixed-window";

// These tests count attempts exactly; with Redis (CI's second pass) a store answer later than the
// 50 ms budget, while this process writes audit entries beside it, would fall back to memory and
// count apart. Falling back is what ratelimit.redis.test.ts covers.
process.env.RATE_LIMIT_STORE_TIMEOUT_MS ??= "2000";

let database: OpenDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database?.close());

const PASSWORD = "a long enough password";
const WRONG = "not the password at all";

let hostCounter = 0;
const fromNewAddress = () => ({ ip: `203.0.113.${++hostCounter}`, userAgent: "vitest" });

async function account(email: string) {
  return database.db.user.create({ data: { email, passwordHash: await hashPassword(PASSWORD) }, select: { id: true, email: true } });
}

const refusal = (promise: Promise<unknown>) => appErrorFrom(promise, "RATE_LIMITED");

/**
 * The address ceiling's window is a fixed one of the clock (every 15 minutes): attempts made across
 * its end count in two windows and reach no ceiling. The attempts take a second or two on a loaded
 * machine, so they start where at least 30 s of the window are left.
 */
const earlyInWindow = () => withRoomInWindow(SIGN_IN_THROTTLE.windowMs, 30_000);

describe("sign-in throttling", () => {
  it("never locks the owner out for a stranger's wrong passwords from another address", async () => {
    const owner = await account("owner@example.com");
    const stranger = fromNewAddress();
    // The clock steps half a second per guess, whatever this machine's speed: with the real one a
    // slow password check let a window move on between the last guess and the next call.
    vi.useFakeTimers({ toFake: ["Date"] });
    try {
      // Far past the old lock-out of ten failures per e-mail, within the stranger's own allowance.
      let refused = 0;
      for (let i = 0; i < 25; i++) {
        vi.setSystemTime(Date.now() + 500);
        await verifyCredentials(database.db, { email: owner.email, password: WRONG }, stranger).catch((error: unknown) => {
          if (!(error instanceof AppError) || error.code !== "RATE_LIMITED") throw error;
          refused++;
        });
      }
      expect(refused).toBeGreaterThan(0);
      // The stranger is being slowed down…
      await refusal(verifyCredentials(database.db, { email: owner.email, password: PASSWORD }, stranger));
      // …and the owner, from their own address, signs in at once.
      expect(await verifyCredentials(database.db, { email: owner.email, password: PASSWORD }, fromNewAddress())).toEqual(owner);
    } finally {
      vi.useRealTimers();
    }
  });

  it("slows one address after a few failures on one account, telling the real wait", async () => {
    const user = await account("typo@example.com");
    const client = fromNewAddress();
    let admitted = 0;
    let error: AppError | null = null;
    while (!error && admitted <= SIGN_IN_THROTTLE.perPair) {
      error = await verifyCredentials(database.db, { email: user.email, password: WRONG }, client).then(
        () => {
          admitted++;
          return null;
        },
        (e: AppError) => e,
      );
    }
    expect(error?.code).toBe("RATE_LIMITED");
    expect(admitted).toBeGreaterThanOrEqual(SIGN_IN_THROTTLE.freeAttempts);
    // The first waits are the ladder's (seconds when guesses come quickly; which rung refuses first
    // depends on how long each password check takes here), never the quarter of an hour the old
    // limit imposed while saying 2 minutes; the message states the same wait as retry_after.
    const retryAfter = error!.extra.retryAfter as number;
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(SIGN_IN_THROTTLE.maxDelayMs / 1000);
    expect(error!.message).toBe(tooManyAttemptsMessage(retryAfter));
  });

  it("answers an address without an account exactly like one with an account", async () => {
    await account("exists@example.com");
    // What a caller sees: null for each admitted guess, then the refusal (its wait depends on the clock, not on the account).
    const outcomes = async (email: string) => {
      const client = fromNewAddress();
      const seen: string[] = [];
      while (seen.length <= SIGN_IN_THROTTLE.perPair) {
        const outcome = await verifyCredentials(database.db, { email, password: WRONG }, client).then(
          (result) => String(result),
          (error: AppError) => `${error.code} ${error.message.replace(/\d+ (seconds?|minutes)/, "N")}`,
        );
        seen.push(outcome);
        if (outcome !== "null") break;
      }
      return { free: seen.slice(0, SIGN_IN_THROTTLE.freeAttempts), refusal: seen.at(-1) };
    };
    const missing = await outcomes("missing@example.com");
    expect(missing).toEqual({ free: Array(SIGN_IN_THROTTLE.freeAttempts).fill("null"), refusal: "RATE_LIMITED Too many attempts. Try again in N." });
    expect(await outcomes("exists@example.com")).toEqual(missing);
  });

  it("holds one address to a ceiling across accounts", { timeout: 60_000 }, async () => {
    const sprayer = fromNewAddress();
    await earlyInWindow();
    for (let i = 0; i < SIGN_IN_THROTTLE.perAddress; i++) {
      expect(await verifyCredentials(database.db, { email: `spray-${i}@example.com`, password: WRONG }, sprayer)).toBeNull();
    }
    const error = await refusal(verifyCredentials(database.db, { email: "spray-last@example.com", password: WRONG }, sprayer));
    // Until the address's 15-minute limiter window frees up: anywhere up to 15 minutes, by the clock.
    expect(error.extra.retryAfter).toBeGreaterThanOrEqual(1);
    expect(error.extra.retryAfter).toBeLessThanOrEqual(SIGN_IN_THROTTLE.windowMs / 1000);
    expect(error.message).toBe(tooManyAttemptsMessage(error.extra.retryAfter!));
  });

  it("audits failed sign-ins on the account's trail without revealing them to the caller", async () => {
    const user = await account("audited@example.com");
    const client = { ip: "198.51.100.77", userAgent: "guesser/1.0" };
    expect(await verifyCredentials(database.db, { email: user.email, password: WRONG }, client)).toBeNull();
    expect(await verifyCredentials(database.db, { email: "nobody-here@example.com", password: WRONG }, client)).toBeNull();

    const failed = await database.db.auditEvent.findMany({ where: { action: "signin.failed", ip: "198.51.100.77" }, orderBy: { at: "asc" } });
    expect(failed).toMatchObject([
      { actorId: null, subjectId: user.id, userAgent: "guesser/1.0" },
      { actorId: null, subjectId: null, userAgent: "guesser/1.0" },
    ]);
    const trail = await auditTrail(database.db, user.id);
    expect(trail.entries[0]).toMatchObject({ action: "signin.failed", label: "Failed sign-in (wrong password)", ip: "198.51.100.77" });
  });
});
