// POST /api/account/password — changes the password (current one required); every other session ends.
import { withSession } from "@/lib/api/with-session";
import { readJson } from "@/lib/api/read-json";
import { changePassword, changePasswordSchema } from "@/lib/accounts/change-password";

export const POST = withSession("user", async ({ request, db, user, origin }) => ({
  data: await changePassword(db, user, await readJson(request, changePasswordSchema), origin),
}));
