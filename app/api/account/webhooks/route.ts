// GET /api/account/webhooks — the signed-in user's live webhook endpoints; POST — add one (its secret is in this answer only).
import { readJson } from "@/lib/api/read-json";
import { withSession } from "@/lib/api/with-session";
import { appServices } from "@/lib/app-services";
import { createEndpoint, listEndpoints } from "@/lib/webhooks/webhook-endpoints";
import { endpointInputSchema } from "@/lib/webhooks/webhook-schema";
import { webWebhookOwner } from "@/lib/webhooks/web-owner";

export const GET = withSession("user", async ({ db, user }) => ({ data: { items: await listEndpoints(db, webWebhookOwner(user)) } }));

export const POST = withSession("user", async ({ request, db, user, origin }) => {
  const input = await readJson(request, endpointInputSchema);
  return { data: await createEndpoint(db, webWebhookOwner(user), input, appServices().allowPrivateWebhookUrls, origin), status: 201 };
});
