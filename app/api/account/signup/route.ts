// POST /api/account/signup — creates an account on the Free plan; the page then signs in.
import { signUp } from "@/lib/accounts/accounts";
import { withSession } from "@/lib/api/with-session";
import { readJson } from "@/lib/api/read-json";
import { credentialsSchema } from "@/lib/accounts/credentials";

export const POST = withSession("anonymous", async ({ request, db, origin }) => {
  const input = await readJson(request, credentialsSchema);
  const user = await signUp(db, input, origin);
  return { data: { id: user.id, email: user.email }, status: 201 };
});
