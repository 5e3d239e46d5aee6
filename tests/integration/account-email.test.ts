import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { hashPassword } from "@/lib/accounts/passwords";
import { SIGN_UP_ANSWER, signUp, verifyCredentials } from "@/lib/accounts/accounts";
import { TOKEN_MESSAGES } from "@/lib/accounts/email-tokens";
import { resendVerificationEmail, verifyEmail } from "@/lib/accounts/email-verification";
import { requestPasswordReset, resetPassword } from "@/lib/accounts/password-reset";
import { PASSWORD_PROBLEMS } from "@/lib/accounts/password-strength";
import { createUserSession } from "@/lib/accounts/user-sessions";
import type { OpenDatabase } from "@/lib/db/open-database";
import { linkIn, startSmtpServer, type TestSmtpServer } from "@/tests/support/smtp-server";
import { createTestDatabase } from "@/tests/support/test-database";
import { appErrorFrom } from "@/tests/support/app-error";
import { restoreEnv, saveEnv } from "@/tests/support/saved-env";

// Counted, not timed: whether sign-up hashes the password is what makes its two answers cost the same.
vi.mock("@/lib/accounts/passwords", async (importOriginal) => {
  const original = await importOriginal<typeof import("@/lib/accounts/passwords")>();
  return { ...original, hashPassword: vi.fn(original.hashPassword) };
});

const PUBLIC = "https://funding.example.test";
const PASSWORD = "violet tractor sings at noon";

let database: OpenDatabase;
let smtp: TestSmtpServer;
const saved = saveEnv("SMTP_URL", "PUBLIC_URL", "MAIL_FROM");
beforeAll(async () => {
  [database, smtp] = await Promise.all([createTestDatabase(), startSmtpServer()]);
  process.env.SMTP_URL = smtp.url;
  process.env.PUBLIC_URL = `${PUBLIC}/`;
  process.env.MAIL_FROM = "Funding Service <accounts@funding.example.test>";
});
afterAll(async () => {
  restoreEnv(saved);
  await Promise.all([database?.close(), smtp?.close()]);
});

let ipCounter = 0;
const origin = () => ({ ip: `192.0.2.${++ipCounter}`, userAgent: "vitest" });

async function fieldProblem(promise: Promise<unknown>) {
  return (await appErrorFrom(promise, "VALIDATION_ERROR")).extra.details?.[0];
}

const user = (email: string) => database.db.user.findUniqueOrThrow({ where: { email } });

async function verifiedUser(email: string) {
  await signUp(database.db, { email, password: PASSWORD }, origin());
  const mail = await smtp.waitFor(email, { subject: /Verify/ });
  await verifyEmail(database.db, new URL(linkIn(mail, "/verify-email")).searchParams.get("token"), origin());
  return user(email);
}

describe("sign-up and e-mail verification", () => {
  it("mails a single-use verification link on the public origin; following it verifies the address once", async () => {
    const answer = await signUp(database.db, { email: "New.Trader@Example.com", password: PASSWORD }, origin());
    expect(answer).toEqual({ message: SIGN_UP_ANSWER, delivery: "smtp" });
    const mail = await smtp.waitFor("new.trader@example.com", { subject: /Verify your e-mail/ });
    expect(mail.from).toBe("accounts@funding.example.test");
    const link = linkIn(mail, "/verify-email");
    expect(link.startsWith(`${PUBLIC}/verify-email?token=`)).toBe(true);
    const token = new URL(link).searchParams.get("token")!;

    // Only the token's SHA-256 is stored.
    const stored = await database.db.emailToken.findFirstOrThrow({ where: { user: { email: "new.trader@example.com" } } });
    expect(stored.tokenHash).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(await database.db.emailToken.findMany())).not.toContain(token);

    expect((await user("new.trader@example.com")).emailVerifiedAt).toBeNull();
    expect(await verifyEmail(database.db, token, origin())).toEqual({ email: "new.trader@example.com" });
    expect((await user("new.trader@example.com")).emailVerifiedAt).toBeInstanceOf(Date);
    expect(await fieldProblem(verifyEmail(database.db, token, origin()))).toEqual({ field: "token", message: TOKEN_MESSAGES.used });
    const audit = await database.db.auditEvent.findMany({ where: { action: "email.verified" } });
    expect(audit).toHaveLength(1);
  });

  it("says when a link has expired or was never valid", async () => {
    await signUp(database.db, { email: "late@example.com", password: PASSWORD }, origin());
    const token = new URL(linkIn(await smtp.waitFor("late@example.com"), "/verify-email")).searchParams.get("token");
    await database.db.emailToken.updateMany({ where: { user: { email: "late@example.com" } }, data: { expiresAt: new Date(Date.now() - 1000) } });
    expect(await fieldProblem(verifyEmail(database.db, token, origin()))).toEqual({ field: "token", message: TOKEN_MESSAGES.expired });
    for (const bad of [undefined, "", "x".repeat(43), ["a", "b"], "../../etc"]) {
      expect(await fieldProblem(verifyEmail(database.db, bad, origin()))).toEqual({ field: "token", message: TOKEN_MESSAGES.unknown });
    }
    expect((await user("late@example.com")).emailVerifiedAt).toBeNull();
  });

  it("resends a fresh link that replaces the earlier one, and not once verified", async () => {
    await signUp(database.db, { email: "resend@example.com", password: PASSWORD }, origin());
    const first = new URL(linkIn(await smtp.waitFor("resend@example.com"), "/verify-email")).searchParams.get("token");
    const { id } = await user("resend@example.com");
    expect(await resendVerificationEmail(database.db, id, origin())).toEqual({ alreadyVerified: false, delivery: "smtp" });
    const mails = smtp.messages().filter((m) => m.to.includes("resend@example.com"));
    expect(mails).toHaveLength(2);
    const second = new URL(linkIn(mails[1]!, "/verify-email")).searchParams.get("token");
    expect(await fieldProblem(verifyEmail(database.db, first, origin()))).toEqual({ field: "token", message: TOKEN_MESSAGES.unknown });
    await verifyEmail(database.db, second, origin());
    expect(await resendVerificationEmail(database.db, id, origin())).toEqual({ alreadyVerified: true, delivery: null });
  });

  it("answers a sign-up with a taken address exactly like a new one and e-mails the owner instead", async () => {
    const owner = await verifiedUser("owner@example.com");
    const newcomer = await signUp(database.db, { email: "newcomer@example.com", password: PASSWORD }, origin());
    const taken = await signUp(database.db, { email: "OWNER@Example.com", password: "another phrase entirely" }, origin());
    expect(taken).toEqual(newcomer);

    const warning = await smtp.waitFor("owner@example.com", { subject: /Someone tried to sign up/ });
    expect(linkIn(warning, "/signin")).toBe(`${PUBLIC}/signin`);
    expect(linkIn(warning, "/forgot-password")).toBe(`${PUBLIC}/forgot-password`);
    expect(smtp.messages().filter((m) => m.to.includes("owner@example.com"))).toHaveLength(2); // the verification and the warning
    const after = await user("owner@example.com");
    expect(after).toEqual(owner); // same password hash, still verified, nothing changed
    expect(await verifyCredentials(database.db, { email: "owner@example.com", password: "another phrase entirely" }, origin())).toBeNull();
  });

  it("hashes the password for a taken address as for a new one, so both answers cost the same", async () => {
    await verifiedUser("timing@example.com");
    const hash = vi.mocked(hashPassword);
    for (const email of ["timing@example.com", "timing-new@example.com"]) {
      hash.mockClear();
      expect(await signUp(database.db, { email, password: PASSWORD }, origin())).toMatchObject({ message: SIGN_UP_ANSWER });
      // Without it a taken address answered in a few milliseconds against argon2's tens.
      expect(hash, email).toHaveBeenCalledTimes(1);
    }
  });

  it("gives no operator rights to any address, whatever its case, even one an old operator list named", async () => {
    process.env.ADMIN_EMAILS = "root@example.com";
    try {
      for (const email of ["Root@Example.com", "ADMIN@example.com", "operator@e2e.test"]) {
        await verifiedUser(email.toLowerCase());
        expect((await user(email.toLowerCase())).isOperator).toBe(false);
      }
    } finally {
      delete process.env.ADMIN_EMAILS;
    }
  });
});

describe("password reset", () => {
  async function resetLink(email: string) {
    const before = smtp.messages().length;
    const answer = await requestPasswordReset(database.db, { email }, origin());
    expect(answer).toEqual({ delivery: "smtp" });
    for (let i = 0; i < 100 && smtp.messages().length === before; i++) await new Promise((r) => setTimeout(r, 50));
    const mail = smtp.messages().slice(before).find((m) => m.to.includes(email.toLowerCase()) && /Reset/.test(m.subject));
    return mail ? new URL(linkIn(mail, "/reset-password")).searchParams.get("token")! : null;
  }

  it("answers the same for an unknown address and sends nothing", async () => {
    const before = smtp.messages().length;
    expect(await requestPasswordReset(database.db, { email: "nobody@example.com" }, origin())).toEqual({ delivery: "smtp" });
    await new Promise((r) => setTimeout(r, 300));
    expect(smtp.messages().length).toBe(before);
  });

  it("sets a new password once, within 30 minutes, and ends every session of the account", async () => {
    const account = await verifiedUser("forgetful@example.com");
    const sessions = await Promise.all([createUserSession(database.db, account.id), createUserSession(database.db, account.id)]);
    const token = (await resetLink("Forgetful@Example.com"))!;
    const row = await database.db.emailToken.findFirstOrThrow({ where: { userId: account.id, purpose: "RESET_PASSWORD" } });
    const ttl = row.expiresAt.getTime() - row.createdAt.getTime();
    expect(ttl).toBeGreaterThan(29 * 60_000);
    expect(ttl).toBeLessThanOrEqual(30 * 60_000 + 1000);

    // A refused password does not use the link up.
    expect(await fieldProblem(resetPassword(database.db, { token, password: "password123456" }, origin()))).toEqual({ field: "password", message: PASSWORD_PROBLEMS.common });
    expect(await fieldProblem(resetPassword(database.db, { token, password: "forgetful-forgetful-x" }, origin()))).toEqual({ field: "password", message: PASSWORD_PROBLEMS.email });

    const result = await resetPassword(database.db, { token, password: "a brand new passphrase" }, origin());
    expect(result).toEqual({ email: "forgetful@example.com", sessionsEnded: 2 });
    const ended = await database.db.userSession.findMany({ where: { id: { in: sessions.map((s) => s.id) } } });
    expect(ended.every((s) => s.revokedAt !== null)).toBe(true);
    expect(await verifyCredentials(database.db, { email: "forgetful@example.com", password: PASSWORD }, origin())).toBeNull();
    expect(await verifyCredentials(database.db, { email: "forgetful@example.com", password: "a brand new passphrase" }, origin())).toMatchObject({ id: account.id });
    expect(await fieldProblem(resetPassword(database.db, { token, password: "yet another passphrase" }, origin()))).toEqual({ field: "token", message: TOKEN_MESSAGES.used });
    expect(await database.db.auditEvent.count({ where: { subjectId: account.id, action: "password.reset" } })).toBe(1);
  });

  it("refuses an expired link", async () => {
    const account = await verifiedUser("slow@example.com");
    const token = (await resetLink("slow@example.com"))!;
    await database.db.emailToken.updateMany({ where: { userId: account.id, purpose: "RESET_PASSWORD" }, data: { expiresAt: new Date(Date.now() - 1) } });
    expect(await fieldProblem(resetPassword(database.db, { token, password: "a brand new passphrase" }, origin()))).toEqual({ field: "token", message: TOKEN_MESSAGES.expired });
    expect((await user("slow@example.com")).passwordHash).toBe(account.passwordHash);
  });

  it("does not take a verification link for a reset link", async () => {
    await signUp(database.db, { email: "mixup@example.com", password: PASSWORD }, origin());
    const token = new URL(linkIn(await smtp.waitFor("mixup@example.com"), "/verify-email")).searchParams.get("token");
    expect(await fieldProblem(resetPassword(database.db, { token, password: "a brand new passphrase" }, origin()))).toEqual({ field: "token", message: TOKEN_MESSAGES.unknown });
  });
});
