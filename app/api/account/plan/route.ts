// POST /api/account/plan — moves the signed-in user to another tier through the billing provider (demo; Stripe refuses with 403: Checkout and the portal change plans there).
import { readJson } from "@/lib/api/read-json";
import { withSession } from "@/lib/api/with-session";
import { changeTier, changeTierSchema, tierChangeView } from "@/lib/billing/change-tier";

export const POST = withSession("user", async ({ request, db, user, origin }) => {
  const { tier } = await readJson(request, changeTierSchema);
  const change = await changeTier(db, { userId: user.id }, { userId: user.id, tier }, origin);
  return { data: tierChangeView(change) };
});
