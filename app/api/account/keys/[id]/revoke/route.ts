// POST /api/account/keys/{id}/revoke — immediate and final; another user's key is "not found".
import { withSession } from "@/lib/api/with-session";
import { revokeKey } from "@/lib/keys/account-keys";

export const POST = withSession<{ id: string }>("user", async ({ services, actor, params, origin }) => ({
  data: await revokeKey(services, actor, params.id, origin),
}));
