// POST /api/account/password-reset/complete — sets a new password from a reset link (once) and
// ends every session of the account.
import { resetPassword } from "@/lib/accounts/password-reset";
import { passwordResetSchema } from "@/lib/accounts/credentials";
import { readJson } from "@/lib/api/read-json";
import { withSession } from "@/lib/api/with-session";

export const POST = withSession("anonymous", async ({ request, db, origin }) => {
  const input = await readJson(request, passwordResetSchema);
  const { email } = await resetPassword(db, input, origin);
  return { data: { email } };
});
