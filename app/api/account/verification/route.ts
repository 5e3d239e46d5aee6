// POST /api/account/verification — mails the signed-in user a new link to verify their address.
import { resendVerificationEmail } from "@/lib/accounts/email-verification";
import { withSession } from "@/lib/api/with-session";

export const POST = withSession("user", async ({ db, user, origin }) => {
  return { data: await resendVerificationEmail(db, user.id, origin) };
});
