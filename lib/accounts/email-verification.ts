import { recordAudit, type RequestOrigin } from "@/lib/audit";
import { publicOrigin } from "@/lib/config/public-url";
import type { Db } from "@/lib/db";
import { sendMail, sendMailInBackground, type MailDelivery } from "@/lib/mail/mailer";
import { verificationMail, VERIFY_EMAIL_TTL_HOURS } from "@/lib/mail/messages";
import { countAttempt } from "./attempt-limits";
import { consumeEmailToken, issueEmailToken } from "./email-tokens";

/**
 * Mails `user` a fresh single-use link to /verify-email; earlier unused links stop working.
 * `background` does not wait for the mail server (sign-up must answer in the same time either way).
 */
export async function sendVerificationEmail(db: Db, user: { id: string; email: string }, options: { background?: boolean } = {}): Promise<MailDelivery> {
  const token = await issueEmailToken(db, user.id, "VERIFY_EMAIL", VERIFY_EMAIL_TTL_HOURS * 60 * 60 * 1000);
  const mail = verificationMail(user.email, `${publicOrigin()}/verify-email?token=${token}`);
  return options.background ? sendMailInBackground(mail) : sendMail(mail);
}

/**
 * The "resend" control of the account area. Counted with the sign-up attempts (the same per-IP and
 * per-address limits), so it cannot be used to flood an inbox.
 */
export async function resendVerificationEmail(
  db: Db,
  userId: string,
  origin: RequestOrigin,
): Promise<{ alreadyVerified: boolean; delivery: MailDelivery | null }> {
  const user = await db.user.findUniqueOrThrow({ where: { id: userId }, select: { id: true, email: true, emailVerifiedAt: true } });
  if (user.emailVerifiedAt) return { alreadyVerified: true, delivery: null };
  await countAttempt("signUp", origin.ip, user.email);
  return { alreadyVerified: false, delivery: await sendVerificationEmail(db, user) };
}

/** Follows a verification link: marks the address verified (once) and records it in the audit trail. */
export async function verifyEmail(db: Db, token: unknown, origin: RequestOrigin): Promise<{ email: string }> {
  const { userId, email } = await consumeEmailToken(db, token, "VERIFY_EMAIL");
  const marked = await db.user.updateMany({ where: { id: userId, emailVerifiedAt: null }, data: { emailVerifiedAt: new Date() } });
  if (marked.count) await recordAudit(db, { actorId: userId, subjectId: userId, action: "email.verified", target: email }, origin);
  return { email };
}
