// PATCH /api/account/alerts/{id} — change a rule (name, conditions, endpoints, cool-down, enabled); DELETE — remove it.
import { deleteAlertRule, updateAlertRule } from "@/lib/alerts/alert-rules";
import { alertRuleUpdateSchema } from "@/lib/alerts/alert-schema";
import { readJson } from "@/lib/api/read-json";
import { withSession } from "@/lib/api/with-session";
import { webWebhookOwner } from "@/lib/webhooks/web-owner";

export const PATCH = withSession<{ id: string }>("user", async ({ request, db, user, params }) => {
  const update = await readJson(request, alertRuleUpdateSchema);
  return { data: await updateAlertRule(db, webWebhookOwner(user), params.id, update) };
});

export const DELETE = withSession<{ id: string }>("user", async ({ db, user, params, origin }) => ({
  data: await deleteAlertRule(db, webWebhookOwner(user), params.id, origin),
}));
