// POST /api/admin/keys/{id}/revoke — an operator revokes any account's key, at once; audited as the operator.
import { withSession } from "@/lib/api/with-session";
import { revokeKey } from "@/lib/keys/account-keys";

export const POST = withSession<{ id: string }, "admin">("admin", async ({ db, user, params, origin }) => ({
  data: await revokeKey(db, user.id, null, params.id, origin),
}));
