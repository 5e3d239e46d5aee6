// POST /api/account/webhooks/{id}/test — queue a test event to the endpoint (body: {"type"?}).
import { readJson } from "@/lib/api/read-json";
import { withSession } from "@/lib/api/with-session";
import { appServices } from "@/lib/app-services";
import { sendTestEvent } from "@/lib/webhooks/webhook-deliveries";
import { testEventSchema } from "@/lib/webhooks/webhook-schema";
import { webWebhookOwner } from "@/lib/webhooks/web-owner";

export const POST = withSession<{ id: string }>("user", async ({ request, db, user, params }) => {
  const { type } = await readJson(request, testEventSchema);
  return { data: await sendTestEvent(db, webWebhookOwner(user), params.id, { limiter: appServices().limiter, type }) };
});
