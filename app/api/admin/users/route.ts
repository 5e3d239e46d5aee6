// GET /api/admin/users?q=… — accounts whose e-mail contains q (any case), with their keys; operators only.
import { z } from "zod";
import { parseQuery } from "@/lib/query-params";
import { storableText } from "@/lib/validation";
import { MAX_QUERY_LENGTH, searchUsers } from "@/lib/admin/search-users";
import { withSession } from "@/lib/api/with-session";

const querySchema = z.strictObject({
  q: storableText(z.string().trim().min(1, "Give part of an e-mail address").max(MAX_QUERY_LENGTH, `At most ${MAX_QUERY_LENGTH} characters`)),
});

export const GET = withSession("admin", async ({ request, db }) => {
  // parseQuery refuses a repeated `q` (400) as every /v1 query does, rather than keeping the last.
  const { q } = parseQuery(new URL(request.url), querySchema);
  const result = await searchUsers(db, q);
  return {
    data: {
      query: result.query,
      total: result.total,
      items: result.users.map((user) => ({
        id: user.id,
        email: user.email,
        tier: user.tier,
        created_at: user.createdAt.toISOString(),
        keys: user.keys,
      })),
    },
  };
});
