// npm run admin -- grant <email> | revoke <email>: gives or takes operator rights (the /admin
// console) on the configured database (DATABASE_URL, or the embedded PGlite under DATA_DIR).
// Operators are designated here, by whoever runs the server, and nowhere a visitor can reach.
// npm run admin -- comp <email> <pro|desk> <reason…>: under Stripe billing, grants the account a
// plan without charge (lib/billing/stripe/comp-plan.ts), audited.
import { configuredDatabase } from "@/lib/db";
import { acquireDataDirLock, DataDirLockedError } from "@/lib/db/data-dir-lock";
import { openDatabase } from "@/lib/db/open-database";
import { ADMIN_COMMAND_ORIGIN, grantOperator, OperatorChangeRefused, revokeOperator } from "@/lib/accounts/operators";
import { emailSchema } from "@/lib/accounts/credentials";
import { billingProvider } from "@/lib/billing/billing-provider";
import { compPlan, compSchema } from "@/lib/billing/stripe/comp-plan";
import { isStripeProvider } from "@/lib/billing/stripe/stripe-provider";
import type { Db } from "@/lib/db";
import { AppError } from "@/lib/errors";

const USAGE =
  "Usage: npm run admin -- grant <email>\n       npm run admin -- revoke <email>\n       npm run admin -- comp <email> <pro|desk> <reason…>";

const [command, email, ...rest] = process.argv.slice(2);
const valid = command === "comp" ? Boolean(email && rest.length >= 2) : (command === "grant" || command === "revoke") && Boolean(email) && rest.length === 0;
if (!valid) {
  console.error(USAGE);
  process.exit(2);
}

async function comp(db: Db, address: string, [tier, ...reason]: string[]): Promise<string> {
  const grant = compSchema.safeParse({ tier, reason: reason.join(" ") });
  if (!grant.success) throw new OperatorChangeRefused(grant.error.issues.map((issue) => issue.message).join("; "));
  const provider = billingProvider();
  if (!isStripeProvider(provider)) throw new OperatorChangeRefused("Comps are for Stripe billing; under demo billing change the tier in /admin.");
  const parsed = emailSchema.safeParse(address);
  if (!parsed.success) throw new OperatorChangeRefused(`"${address}" is not an e-mail address.`);
  const user = await db.user.findUnique({ where: { email: parsed.data }, select: { id: true, email: true } });
  if (!user) throw new OperatorChangeRefused(`No account has the e-mail address ${address}.`);
  const result = await compPlan(db, provider, null, { userId: user.id, ...grant.data }, ADMIN_COMMAND_ORIGIN);
  return `${user.email} has ${result.tier} without charge now (Stripe subscription ${result.subscriptionId}; recorded in the audit trail).`;
}

try {
  const target = configuredDatabase();
  // The embedded database belongs to one process: with the server running this fails, naming it.
  if (target.driver === "pglite" && target.dataDir) acquireDataDirLock(target.dataDir);
  const opened = await openDatabase(target);
  try {
    if (command === "comp") {
      console.log(await comp(opened.db, email!, rest));
    } else {
      const result = command === "grant" ? await grantOperator(opened.db, email!) : await revokeOperator(opened.db, email!);
      const state = command === "grant" ? "is an operator" : "is not an operator";
      console.log(result.changed ? `${result.email} ${state} now (recorded in the audit trail).` : `${result.email} already ${state}; nothing changed.`);
    }
  } finally {
    await opened.close();
  }
} catch (error) {
  if (error instanceof OperatorChangeRefused || error instanceof DataDirLockedError || error instanceof AppError) {
    console.error(error.message);
    process.exit(1);
  }
  throw error;
}
