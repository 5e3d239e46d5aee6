// POST /api/admin/users/{id}/tier — an operator moves any account to another tier; audited as the operator.
import { readJson } from "@/lib/api/read-json";
import { withSession } from "@/lib/api/with-session";
import { changeTier, changeTierSchema, tierChangeView } from "@/lib/billing/change-tier";

export const POST = withSession<{ id: string }, "admin">("admin", async ({ request, db, user, params, origin }) => {
  const { tier } = await readJson(request, changeTierSchema);
  const change = await changeTier(db, { userId: user.id }, { userId: params.id, tier }, origin);
  return { data: tierChangeView(change) };
});
