// GET /api/account/alerts — the signed-in user's live alert rules; POST — add one.
import { createAlertRule, listAlertRules } from "@/lib/alerts/alert-rules";
import { alertRuleInputSchema } from "@/lib/alerts/alert-schema";
import { readJson } from "@/lib/api/read-json";
import { withSession } from "@/lib/api/with-session";
import { webWebhookOwner } from "@/lib/webhooks/web-owner";

export const GET = withSession("user", async ({ db, user }) => ({ data: { items: await listAlertRules(db, webWebhookOwner(user)) } }));

export const POST = withSession("user", async ({ request, db, user, origin }) => {
  const input = await readJson(request, alertRuleInputSchema);
  return { data: await createAlertRule(db, webWebhookOwner(user), input, origin), status: 201 };
});
