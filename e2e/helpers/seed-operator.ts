// Run by playwright.config.ts before the server starts (the embedded database admits one process):
// creates the operator's account with a verified address, as following the verification link does.
// `npm run admin -- grant` then makes it an operator, the way a deployment designates one.
import { verifyEmail } from "../../lib/accounts/email-verification";
import { issueEmailToken } from "../../lib/accounts/email-tokens";
import { hashPassword } from "../../lib/accounts/passwords";
import { configuredDatabase } from "../../lib/db";
import { acquireDataDirLock } from "../../lib/db/data-dir-lock";
import { openDatabase } from "../../lib/db/open-database";
import { OPERATOR_EMAIL, PASSWORD } from "./e2e-env";

const target = configuredDatabase();
if (target.driver === "pglite" && target.dataDir) acquireDataDirLock(target.dataDir);
const opened = await openDatabase(target);
try {
  const user =
    (await opened.db.user.findUnique({ where: { email: OPERATOR_EMAIL } })) ??
    (await opened.db.user.create({ data: { email: OPERATOR_EMAIL, passwordHash: await hashPassword(PASSWORD) } }));
  if (!user.emailVerifiedAt) {
    await verifyEmail(opened.db, await issueEmailToken(opened.db, user.id, "VERIFY_EMAIL", 60_000), { ip: null, userAgent: "e2e seed" });
  }
} finally {
  await opened.close();
}
