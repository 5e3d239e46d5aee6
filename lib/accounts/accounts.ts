import { recordAudit, type RequestOrigin } from "@/lib/audit";
import { publicOrigin } from "@/lib/config/public-url";
import type { Db } from "@/lib/db";
import { sendMailInBackground, type MailDelivery } from "@/lib/mail/mailer";
import { signUpAttemptMail } from "@/lib/mail/messages";
import { parseInput } from "@/lib/validation";
import { countAttempt, countSignInAttempt } from "./attempt-limits";
import { credentialsSchema, emailSchema } from "./credentials";
import { sendVerificationEmail } from "./email-verification";
import { burnPasswordCheck, hashPassword, verifyPassword } from "./passwords";

export interface AccountUser {
  id: string;
  email: string;
}

/** What sign-up answers, whether or not the address already had an account. */
export const SIGN_UP_ANSWER = "Check your inbox to verify your address, then sign in.";

/**
 * Creates an account (tier Free, e-mail unverified) and mails a verification link. An address
 * that already has an account gets the same answer in the same time (the password is hashed
 * either way, mail leaves in the background), and its owner gets an e-mail saying someone tried:
 * sign-up never tells a stranger which addresses have accounts.
 */
export async function signUp(db: Db, input: unknown, origin: RequestOrigin): Promise<{ message: string; delivery: MailDelivery }> {
  const { email, password } = parseInput(credentialsSchema, input);
  await countAttempt("signUp", origin.ip, email);
  const passwordHash = await hashPassword(password);
  const warnOwner = () => ({
    message: SIGN_UP_ANSWER,
    delivery: sendMailInBackground(signUpAttemptMail(email, `${publicOrigin()}/signin`, `${publicOrigin()}/forgot-password`)),
  });
  if (await db.user.findUnique({ where: { email }, select: { id: true } })) return warnOwner();
  let user: AccountUser;
  try {
    user = await db.user.create({ data: { email, passwordHash }, select: { id: true, email: true } });
  } catch (error) {
    if ((error as { code?: string }).code === "P2002") return warnOwner(); // lost a race with a twin sign-up
    throw error;
  }
  await recordAudit(db, { actorId: user.id, subjectId: user.id, action: "account.created", target: user.id }, origin);
  return { message: SIGN_UP_ANSWER, delivery: await sendVerificationEmail(db, user, { background: true }) };
}

/**
 * Checks an e-mail and password. Returns null for any mismatch, taking the same time whether or
 * not the e-mail exists, so the answer never reveals which addresses have accounts.
 */
export async function verifyCredentials(db: Db, input: { email?: unknown; password?: unknown }, origin: RequestOrigin): Promise<AccountUser | null> {
  const email = emailSchema.safeParse(input.email);
  const password = typeof input.password === "string" ? input.password.slice(0, 1024) : "";
  if (!email.success || !password) return null;
  await countSignInAttempt(origin.ip, email.data);
  const user = await db.user.findUnique({ where: { email: email.data }, select: { id: true, email: true, passwordHash: true } });
  if (!user || !(await verifyPassword(user.passwordHash, password))) {
    if (!user) await burnPasswordCheck(password);
    // Recorded for unknown addresses too (no subject), so both cases cost the same write; the
    // owner sees failures on their account in the audit trail, the caller learns nothing.
    await recordAudit(db, { actorId: null, subjectId: user?.id ?? null, action: "signin.failed", target: null }, origin);
    return null;
  }
  await recordAudit(db, { actorId: user.id, subjectId: user.id, action: "sign_in", target: user.id }, origin);
  return { id: user.id, email: user.email };
}
