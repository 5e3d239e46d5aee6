// GET /api/opportunities/:id/history — both legs' funding settlements and interval changes of the last 7 days, for the screener's chart.
import { AppError } from "@/lib/errors";
import { withSession } from "@/lib/api/with-session";
import type { MarketRef } from "@/lib/market/market";
import type { LegHistory, OpportunityHistory } from "@/lib/screener/leg-history";
import { screenerView } from "@/lib/screener/screener-view";

const HISTORY_MS = 7 * 86_400_000;

// The id is an opportunity's (any text /v1/opportunities/{id} accepts), looked up in memory only.
export const GET = withSession<{ id: string }>("user", async ({ params, user, services }) => {
  const view = await screenerView(user.tier);
  // Only opportunities of the set this account sees: a Free account cannot read live ones by id.
  const opportunity = view.status === "ready" ? view.snapshot.byId(params.id) : undefined;
  if (!opportunity) throw new AppError("NOT_FOUND", `No opportunity with id "${params.id}"`);
  const to = view.historyUntil;
  const from = new Date(to.getTime() - HISTORY_MS);
  const market = services.market("live");
  const legHistory = async (leg: MarketRef): Promise<LegHistory> => {
    const [settlements, changes] = await Promise.all([
      market.settlements(opportunity.symbol, leg, from, to),
      // A market changes its interval a few times a month at most: one page holds a week's.
      market.intervalChanges({ exchange: leg.exchange, symbol: opportunity.symbol, from, to, limit: 100, offset: 0 }),
    ]);
    const intervalChanges = changes.items.filter((change) => change.market === leg.market);
    return { exchange: leg.exchange, market: leg.market, settlements, intervalChanges };
  };
  const [long, short] = await Promise.all([legHistory(opportunity.long), legHistory(opportunity.short)]);
  const data: OpportunityHistory = {
    id: opportunity.id,
    long,
    short,
    from: from.toISOString(),
    to: to.toISOString(),
    delayed: view.delayed,
  };
  return { data };
}, { id: "other" });
