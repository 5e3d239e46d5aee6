// POST /api/account/keys/{id}/allowlist — replaces the key's IP allowlist (empty: any address); in force on its next request.
import { withSession } from "@/lib/api/with-session";
import { readJson } from "@/lib/api/read-json";
import { setKeyAllowlist, updateAllowlistSchema } from "@/lib/keys/account-keys";

export const POST = withSession<{ id: string }>("user", async ({ request, services, actor, params, origin }) => {
  const { allowed_ips } = await readJson(request, updateAllowlistSchema);
  return { data: await setKeyAllowlist(services, actor, params.id, allowed_ips, origin) };
});
