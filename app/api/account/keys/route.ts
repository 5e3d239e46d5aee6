// GET /api/account/keys — the signed-in user's keys; POST — create one (its secret is in this answer only).
import { withSession } from "@/lib/api/with-session";
import { readJson } from "@/lib/api/read-json";
import { createKey, createKeySchema, listKeys } from "@/lib/keys/account-keys";

export const GET = withSession("user", async ({ services, actor }) => ({ data: { items: await listKeys(services, actor) } }));

export const POST = withSession("user", async ({ request, services, actor, origin }) => {
  const input = await readJson(request, createKeySchema);
  return { data: await createKey(services, actor, input, origin), status: 201 };
});
