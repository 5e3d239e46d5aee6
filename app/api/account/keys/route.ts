// GET /api/account/keys — the signed-in user's keys; POST — create one (its secret is in this answer only).
import { withSession } from "@/lib/api/with-session";
import { readJson } from "@/lib/api/read-json";
import { createKey, createKeySchema, listKeys } from "@/lib/keys/account-keys";

export const GET = withSession("user", async ({ db, user }) => ({ data: { items: await listKeys(db, user.id) } }));

export const POST = withSession("user", async ({ request, db, user, origin }) => {
  const input = await readJson(request, createKeySchema);
  return { data: await createKey(db, user, input, origin), status: 201 };
});
