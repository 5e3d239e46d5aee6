// POST /api/account/fees — Account → Trading settings: sets or clears the signed-in user's taker fee per venue, as PATCH /v1/account/fees does.
import { readJson } from "@/lib/api/read-json";
import { withSession } from "@/lib/api/with-session";
import { listVenueFees, updateAccountFees } from "@/lib/fees/account-fees";
import { accountFeesUpdateSchema } from "@/lib/fees/fee-schema";
import { appServices } from "@/lib/app-services";

// Any plan may keep its fees: they are the account's, and Free accounts' quotes come later with a plan.
export const POST = withSession("user", async ({ request, db, user, origin }) => {
  const update = await readJson(request, accountFeesUpdateSchema);
  await updateAccountFees(db, user.id, update, origin);
  return { data: await listVenueFees(appServices(), { userId: user.id, mode: "live" }) };
});
