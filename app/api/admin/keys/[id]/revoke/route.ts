// POST /api/admin/keys/{id}/revoke — an operator revokes any account's key, at once; audited as the operator.
import { withSession } from "@/lib/api/with-session";
import { revokeAnyKey } from "@/lib/keys/account-keys";

export const POST = withSession<{ id: string }, "admin">("admin", async ({ services, actor, params, origin }) => ({
  data: await revokeAnyKey(services, actor, params.id, origin),
}));
