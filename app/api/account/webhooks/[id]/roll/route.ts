// POST /api/account/webhooks/{id}/roll — a new signing secret (shown once); the previous one signs beside it for the overlap.
import { readJson } from "@/lib/api/read-json";
import { withSession } from "@/lib/api/with-session";
import { rollEndpointSecret } from "@/lib/webhooks/webhook-endpoints";
import { rollSecretSchema } from "@/lib/webhooks/webhook-schema";
import { webWebhookOwner } from "@/lib/webhooks/web-owner";

export const POST = withSession<{ id: string }>("user", async ({ request, db, user, params, origin }) => {
  const { overlap_hours } = await readJson(request, rollSecretSchema);
  return { data: await rollEndpointSecret(db, webWebhookOwner(user), params.id, overlap_hours, origin) };
});
