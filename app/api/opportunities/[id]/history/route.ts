// GET /api/opportunities/:id/history — both legs' funding settlements of the last 7 days, for the screener's chart.
import { appServices } from "@/lib/app-services";
import { AppError } from "@/lib/errors";
import { withSession } from "@/lib/api/with-session";
import type { OpportunityHistory } from "@/lib/screener/leg-history";
import { screenerView } from "@/lib/screener/screener-view";

const HISTORY_MS = 7 * 86_400_000;

export const GET = withSession<{ id: string }>("user", async ({ params, user }) => {
  const view = await screenerView(user.tier);
  // Only opportunities of the set this account sees: a Free account cannot read live ones by id.
  const opportunity = view.status === "ready" ? view.snapshot.items.find((o) => o.id === params.id) : undefined;
  if (!opportunity) throw new AppError("NOT_FOUND", `No opportunity with id "${params.id}"`);
  const to = view.historyUntil;
  const from = new Date(to.getTime() - HISTORY_MS);
  const market = appServices().market("live");
  const [long, short] = await Promise.all([
    market.settlements(opportunity.symbol, opportunity.long, from, to),
    market.settlements(opportunity.symbol, opportunity.short, from, to),
  ]);
  const data: OpportunityHistory = {
    id: opportunity.id,
    long: { exchange: opportunity.long.exchange, market: opportunity.long.market, settlements: long },
    short: { exchange: opportunity.short.exchange, market: opportunity.short.market, settlements: short },
    from: from.toISOString(),
    to: to.toISOString(),
    delayed: view.delayed,
  };
  return { data };
});
