// POST /api/account/password-reset — "forgot password": mails a reset link if the address has an
// account; the same 202 answer either way.
import { requestPasswordReset } from "@/lib/accounts/password-reset";
import { passwordResetRequestSchema } from "@/lib/accounts/credentials";
import { readJson } from "@/lib/api/read-json";
import { withSession } from "@/lib/api/with-session";

export const POST = withSession("anonymous", async ({ request, db, origin }) => {
  const input = await readJson(request, passwordResetRequestSchema);
  return { data: await requestPasswordReset(db, input, origin), status: 202 };
});
