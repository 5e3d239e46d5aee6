// npm run admin -- grant <email> | revoke <email>: gives or takes operator rights (the /admin
// console) on the configured database (DATABASE_URL, or the embedded PGlite under DATA_DIR).
// Operators are designated here, by whoever runs the server, and nowhere a visitor can reach.
import { configuredDatabase } from "@/lib/db";
import { acquireDataDirLock, DataDirLockedError } from "@/lib/db/data-dir-lock";
import { openDatabase } from "@/lib/db/open-database";
import { grantOperator, OperatorChangeRefused, revokeOperator } from "@/lib/accounts/operators";

const USAGE = "Usage: npm run admin -- grant <email>\n       npm run admin -- revoke <email>";

const [command, email, ...rest] = process.argv.slice(2);
if ((command !== "grant" && command !== "revoke") || !email || rest.length) {
  console.error(USAGE);
  process.exit(2);
}

try {
  const target = configuredDatabase();
  // The embedded database belongs to one process: with the server running this fails, naming it.
  if (target.driver === "pglite" && target.dataDir) acquireDataDirLock(target.dataDir);
  const opened = await openDatabase(target);
  try {
    const result = command === "grant" ? await grantOperator(opened.db, email) : await revokeOperator(opened.db, email);
    const state = command === "grant" ? "is an operator" : "is not an operator";
    console.log(result.changed ? `${result.email} ${state} now (recorded in the audit trail).` : `${result.email} already ${state}; nothing changed.`);
  } finally {
    await opened.close();
  }
} catch (error) {
  if (error instanceof OperatorChangeRefused || error instanceof DataDirLockedError) {
    console.error(error.message);
    process.exit(1);
  }
  throw error;
}
