import { fieldError } from "@/lib/errors";
import { recordAudit, type RequestOrigin } from "@/lib/audit";
import type { Db } from "@/lib/db";
import { countAttempt } from "./attempt-limits";
import { credentialsSchema, emailSchema } from "./credentials";
import { burnPasswordCheck, hashPassword, verifyPassword } from "./passwords";
import { parseInput } from "@/lib/validation";

export interface AccountUser {
  id: string;
  email: string;
}

/** Creates an account (tier Free). Duplicate e-mails are refused with a field error. */
export async function signUp(db: Db, input: unknown, origin: RequestOrigin): Promise<AccountUser> {
  const { email, password } = parseInput(credentialsSchema, input);
  await countAttempt("signUp", origin.ip, email);

  const taken = () =>
    fieldError("email", "An account with this e-mail already exists. Sign in instead.");
  if (await db.user.findUnique({ where: { email }, select: { id: true } })) throw taken();
  const passwordHash = await hashPassword(password);
  try {
    const user = await db.user.create({ data: { email, passwordHash }, select: { id: true, email: true } });
    await recordAudit(db, { actorId: user.id, subjectId: user.id, action: "account.created", target: user.id }, origin);
    return user;
  } catch (error) {
    if ((error as { code?: string }).code === "P2002") throw taken(); // lost a race with a twin sign-up
    throw error;
  }
}

/**
 * Checks an e-mail and password. Returns null for any mismatch, taking the same time whether or
 * not the e-mail exists, so the answer never reveals which addresses have accounts.
 */
export async function verifyCredentials(db: Db, input: { email?: unknown; password?: unknown }, origin: RequestOrigin): Promise<AccountUser | null> {
  const email = emailSchema.safeParse(input.email);
  const password = typeof input.password === "string" ? input.password.slice(0, 1024) : "";
  if (!email.success || !password) return null;
  await countAttempt("signIn", origin.ip, email.data);
  const user = await db.user.findUnique({ where: { email: email.data }, select: { id: true, email: true, passwordHash: true } });
  if (!user) return burnPasswordCheck(password).then(() => null);
  if (!(await verifyPassword(user.passwordHash, password))) return null;
  await recordAudit(db, { actorId: user.id, subjectId: user.id, action: "sign_in", target: user.id }, origin);
  return { id: user.id, email: user.email };
}
