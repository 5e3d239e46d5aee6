// POST /api/account/webhooks/{id}/test — queue a test event to the endpoint.
import { withSession } from "@/lib/api/with-session";
import { sendTestEvent } from "@/lib/webhooks/webhook-deliveries";
import { webWebhookOwner } from "@/lib/webhooks/web-owner";

export const POST = withSession<{ id: string }>("user", async ({ db, user, params }) => ({
  data: await sendTestEvent(db, webWebhookOwner(user), params.id),
}));
