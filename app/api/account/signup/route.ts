// POST /api/account/signup — creates an account on the Free plan and mails a verification link;
// the same 202 answer whether or not the address already had an account.
import { signUp } from "@/lib/accounts/accounts";
import { withSession } from "@/lib/api/with-session";
import { readJson } from "@/lib/api/read-json";
import { credentialsSchema } from "@/lib/accounts/credentials";

export const POST = withSession("anonymous", async ({ request, db, origin }) => {
  const input = await readJson(request, credentialsSchema);
  return { data: await signUp(db, input, origin), status: 202 };
});
