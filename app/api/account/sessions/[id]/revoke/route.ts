// POST /api/account/sessions/{id}/revoke — signs one session out; another user's session is "not found".
import { withSession } from "@/lib/api/with-session";
import { signOutSession } from "@/lib/accounts/user-sessions";

export const POST = withSession<{ id: string }>("user", async ({ db, user, params, origin }) => ({
  data: await signOutSession(db, user, params.id, origin),
}));
