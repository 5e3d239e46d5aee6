// GET /api/exports/funding-rates — GET /v1/exports/funding-rates for the signed-in user: the screener's and the history chart's downloads.
import { EXPORT_DEFINITION } from "@/lib/api/export-definition";
import { exportResponse } from "@/lib/api/export-funding-rates";
import { withSession } from "@/lib/api/with-session";
import { parseQuery } from "@/lib/query-params";

export const GET = withSession(
  "user",
  async ({ request, actor, services }) => {
    const query = parseQuery(new URL(request.url), EXPORT_DEFINITION.query);
    return { response: await exportResponse({ services, actor, query }) };
  },
  { rule: EXPORT_DEFINITION },
);
