// GET /api/opportunities/:id/history — both legs' funding settlements and interval changes of the last 7 days, for the screener's chart.
import { AppError } from "@/lib/errors";
import { withSession } from "@/lib/api/with-session";
import { screenerView } from "@/lib/screener/screener-view";
import { opportunityHistory } from "@/lib/screener/opportunity-history";

// The id is an opportunity's (any text /v1/opportunities/{id} accepts), looked up in memory only.
export const GET = withSession<{ id: string }>("user", async ({ params, user, services }) => {
  const view = await screenerView(user.tier);
  // Only opportunities of the set this account sees: a Free account cannot read live ones by id.
  const opportunity = view.status === "ready" ? view.snapshot.byId(params.id) : undefined;
  if (!opportunity) throw new AppError("NOT_FOUND", `No opportunity with id "${params.id}"`);
  return { data: await opportunityHistory(services, view, opportunity) };
}, { id: "other" });
