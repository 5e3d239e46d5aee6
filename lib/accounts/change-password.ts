import { z } from "zod";
import { countPasswordConfirmation } from "@/lib/accounts/attempt-limits";
import { MAX_PASSWORD_LENGTH, passwordSchema } from "@/lib/accounts/credentials";
import { hashPassword, verifyPassword } from "@/lib/accounts/passwords";
import { PASSWORD_PROBLEMS, passwordProblem } from "@/lib/accounts/password-strength";
import { recordAudit, type RequestOrigin } from "@/lib/audit";
import type { Db } from "@/lib/db";
import { AppError, fieldError } from "@/lib/errors";
import { parseInput } from "@/lib/validation";
import { revokeSessions } from "./user-sessions";

/** Account → Security's "Change password": the current password, and a new one under sign-up's rules. */
export const changePasswordSchema = z.strictObject({
  current_password: z.string("Enter your current password").min(1, "Enter your current password").max(MAX_PASSWORD_LENGTH),
  new_password: passwordSchema,
});

/**
 * Changes a signed-in user's password. The current password is required (a borrowed or stolen
 * session must not be enough) and its checks are rate-limited per account; then every other
 * session of the account ends, so whoever knew the old password is signed out everywhere, while
 * this browser stays signed in. Audited as "password.changed".
 */
export async function changePassword(
  db: Db,
  user: { id: string; sessionId: string },
  input: unknown,
  origin: RequestOrigin,
): Promise<{ sessionsEnded: number }> {
  const { current_password: current, new_password: next } = parseInput(changePasswordSchema, input);
  await countPasswordConfirmation(user.id);
  const account = await db.user.findUnique({ where: { id: user.id }, select: { email: true, passwordHash: true } });
  if (!account) throw new AppError("UNAUTHORIZED", "Sign in to continue");
  if (!(await verifyPassword(account.passwordHash, current))) throw fieldError("current_password", "This is not your current password");
  if (passwordProblem(next, account.email) === PASSWORD_PROBLEMS.email) throw fieldError("new_password", PASSWORD_PROBLEMS.email);
  if (next === current) throw fieldError("new_password", "Choose a password different from the current one");
  await db.user.update({ where: { id: user.id }, data: { passwordHash: await hashPassword(next) } });
  const sessionsEnded = await revokeSessions(db, user.id, { except: user.sessionId });
  await recordAudit(db, { actorId: user.id, subjectId: user.id, action: "password.changed", target: null }, origin);
  return { sessionsEnded };
}
