import { recordAudit, type RequestOrigin } from "@/lib/audit";
import { revokeSessions } from "@/lib/accounts/user-sessions";
import { publicOrigin } from "@/lib/config/public-url";
import type { Db } from "@/lib/db";
import { fieldError } from "@/lib/errors";
import { mailDelivery, sendMailInBackground, type MailDelivery } from "@/lib/mail/mailer";
import { passwordResetMail, RESET_PASSWORD_TTL_MINUTES } from "@/lib/mail/messages";
import { parseInput } from "@/lib/validation";
import { countAttempt } from "./attempt-limits";
import { passwordResetRequestSchema, passwordResetSchema } from "./credentials";
import { consumeEmailToken, inspectEmailToken, issueEmailToken, TOKEN_MESSAGES } from "./email-tokens";
import { hashPassword } from "./passwords";
import { PASSWORD_PROBLEMS, passwordProblem } from "./password-strength";

export const RESET_TTL_MS = RESET_PASSWORD_TTL_MINUTES * 60 * 1000;

/**
 * "Forgot password?": mails a single-use link valid for 30 minutes when the address has an
 * account. The answer is the same either way, so the form reveals nothing about who has one.
 * Counted with the sign-up attempts, so it cannot be used to flood an inbox.
 */
export async function requestPasswordReset(db: Db, input: unknown, origin: RequestOrigin): Promise<{ delivery: MailDelivery }> {
  const { email } = parseInput(passwordResetRequestSchema, input);
  await countAttempt("signUp", origin.ip, email);
  const user = await db.user.findUnique({ where: { email }, select: { id: true, email: true } });
  if (!user) return { delivery: mailDelivery() };
  const token = await issueEmailToken(db, user.id, "RESET_PASSWORD", RESET_TTL_MS);
  return { delivery: sendMailInBackground(passwordResetMail(user.email, `${publicOrigin()}/reset-password?token=${token}`)) };
}

/**
 * Sets a new password from a reset link, once. The link is checked before the password so a weak
 * password does not use it up; then every session of the account ends (whoever had the old
 * password is signed out). Following a link mailed to the address also proves it is the owner's.
 */
export async function resetPassword(db: Db, input: unknown, origin: RequestOrigin): Promise<{ email: string; sessionsEnded: number }> {
  const { token, password } = parseInput(passwordResetSchema, input);
  const found = await inspectEmailToken(db, token, "RESET_PASSWORD");
  if (found.state !== "valid") throw fieldError("token", TOKEN_MESSAGES[found.state]);
  if (passwordProblem(password, found.email) === PASSWORD_PROBLEMS.email) throw fieldError("password", PASSWORD_PROBLEMS.email);
  const passwordHash = await hashPassword(password);
  const { userId, email } = await consumeEmailToken(db, token, "RESET_PASSWORD");
  const now = new Date();
  await db.user.update({ where: { id: userId }, data: { passwordHash } });
  await db.user.updateMany({ where: { id: userId, emailVerifiedAt: null }, data: { emailVerifiedAt: now } });
  // Any other reset link still in the inbox is now stale.
  await db.emailToken.deleteMany({ where: { userId, purpose: "RESET_PASSWORD", usedAt: null } });
  const sessionsEnded = await revokeSessions(db, userId);
  await recordAudit(db, { actorId: userId, subjectId: userId, action: "password.reset", target: null }, origin);
  return { email, sessionsEnded };
}
