// GET /api/opportunities/quotes?ids=&notional=&hold_hours=&leverage= — the screener's Size column and Quote panel: quotes of the rows on screen for the signed-in user.
import { apiRoute } from "@/lib/api/session-route";
import { withSession } from "@/lib/api/with-session";
import { parseQuery } from "@/lib/query-params";
import { screenerQuotes, screenerQuotesQuerySchema } from "@/lib/screener/screener-quotes";

// The rule of GET /v1/opportunities/{id}/quote (Free holds no opportunities:read: 403). A quote
// reads the books now, so it is of the live set: a Free account's screener is 15 minutes late,
// and live depth beside delayed rates would be a live quote all the same. Quotes are live keys'
// quotes, with the account's own fees.
export const GET = withSession(
  "user",
  async ({ request, actor, services }) => {
    const query = parseQuery(new URL(request.url), screenerQuotesQuerySchema);
    return { data: { items: await screenerQuotes(services, actor, query) } };
  },
  { rule: apiRoute("getOpportunityQuote") },
);
