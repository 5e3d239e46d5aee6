// POST /api/account/keys/{id}/roll — a replacement key now; the old one is revoked after the grace period.
import { withSession } from "@/lib/api/with-session";
import { readJson } from "@/lib/api/read-json";
import { rollKey, rollKeySchema } from "@/lib/keys/account-keys";

export const POST = withSession<{ id: string }>("user", async ({ request, services, actor, params, origin }) => {
  const { grace } = await readJson(request, rollKeySchema);
  return { data: await rollKey(services, actor, params.id, grace, origin), status: 201 };
});
