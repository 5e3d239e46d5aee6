// PATCH /api/account/webhooks/{id} — change an endpoint (URL, event types, description, enabled); DELETE — remove it.
import { readJson } from "@/lib/api/read-json";
import { withSession } from "@/lib/api/with-session";
import { appServices } from "@/lib/app-services";
import { deleteEndpoint, updateEndpoint } from "@/lib/webhooks/webhook-endpoints";
import { endpointUpdateSchema } from "@/lib/webhooks/webhook-schema";
import { webWebhookOwner } from "@/lib/webhooks/web-owner";

export const PATCH = withSession<{ id: string }>("user", async ({ request, db, user, params }) => {
  const update = await readJson(request, endpointUpdateSchema);
  return { data: await updateEndpoint(db, webWebhookOwner(user), params.id, update, appServices().allowPrivateWebhookUrls) };
});

export const DELETE = withSession<{ id: string }>("user", async ({ db, user, params, origin }) => ({
  data: await deleteEndpoint(db, webWebhookOwner(user), params.id, origin),
}));
