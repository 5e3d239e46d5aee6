// POST /api/account/webhooks/{id}/deliveries/{deliveryId}/redeliver — one more attempt of a delivery, now.
import { AppError } from "@/lib/errors";
import { withSession } from "@/lib/api/with-session";
import { appServices } from "@/lib/app-services";
import { isPlausibleId } from "@/lib/validation";
import { redeliver } from "@/lib/webhooks/webhook-deliveries";
import { webWebhookOwner } from "@/lib/webhooks/web-owner";

export const POST = withSession<{ id: string; deliveryId: string }>("user", async ({ db, user, params }) => {
  if (!isPlausibleId(params.deliveryId)) throw new AppError("NOT_FOUND");
  return { data: await redeliver(db, webWebhookOwner(user), params.id, params.deliveryId, appServices().limiter) };
});
