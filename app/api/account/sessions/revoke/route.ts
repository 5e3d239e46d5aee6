// POST /api/account/sessions/revoke — "Sign out everywhere": every session of the user ends, this one included.
import { withSession } from "@/lib/api/with-session";
import { signOutEverywhere } from "@/lib/accounts/user-sessions";

export const POST = withSession("user", async ({ db, user, origin }) => ({
  data: await signOutEverywhere(db, user.id, origin),
}));
