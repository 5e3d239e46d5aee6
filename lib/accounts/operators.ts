import { recordAudit, type RequestOrigin } from "@/lib/audit";
import type { Db } from "@/lib/db";
import { emailSchema } from "./credentials";

/** Thrown for a refusal the person running `npm run admin` must read; the script prints it as is. */
export class OperatorChangeRefused extends Error {
  constructor(message: string) {
    super(message);
    this.name = "OperatorChangeRefused";
  }
}

/** Who changes operator rights: the server's own command line, not a signed-in user. */
export const ADMIN_COMMAND_ORIGIN: RequestOrigin = { ip: null, userAgent: "npm run admin" };

async function findAccount(db: Db, rawEmail: string) {
  const parsed = emailSchema.safeParse(rawEmail);
  if (!parsed.success) throw new OperatorChangeRefused(`"${rawEmail}" is not an e-mail address.`);
  const user = await db.user.findUnique({ where: { email: parsed.data }, select: { id: true, email: true, isOperator: true, emailVerifiedAt: true } });
  if (!user) throw new OperatorChangeRefused(`No account has the e-mail address ${parsed.data}. The person must sign up first.`);
  return user;
}

/**
 * Makes an account an operator. Only addresses their owner has verified qualify: otherwise
 * anyone who signed up first with an operator's address would hold the console.
 */
export async function grantOperator(db: Db, email: string, origin: RequestOrigin = ADMIN_COMMAND_ORIGIN): Promise<{ email: string; changed: boolean }> {
  const user = await findAccount(db, email);
  if (!user.emailVerifiedAt) {
    throw new OperatorChangeRefused(
      `${user.email} has not verified its e-mail address, so it cannot be an operator. ` +
        "Its owner must follow the verification link (or ask for a new one under Account) first.",
    );
  }
  if (user.isOperator) return { email: user.email, changed: false };
  await db.user.update({ where: { id: user.id }, data: { isOperator: true } });
  await recordAudit(db, { actorId: null, subjectId: user.id, action: "operator.granted", target: user.email }, origin);
  return { email: user.email, changed: true };
}

/** Takes operator rights away; they end with the account's next request (sessions re-read the user). */
export async function revokeOperator(db: Db, email: string, origin: RequestOrigin = ADMIN_COMMAND_ORIGIN): Promise<{ email: string; changed: boolean }> {
  const user = await findAccount(db, email);
  if (!user.isOperator) return { email: user.email, changed: false };
  await db.user.update({ where: { id: user.id }, data: { isOperator: false } });
  await recordAudit(db, { actorId: null, subjectId: user.id, action: "operator.revoked", target: user.email }, origin);
  return { email: user.email, changed: true };
}
