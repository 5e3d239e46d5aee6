import type { AppServices } from "@/lib/app-services";
import type { MarketRef } from "@/lib/market/market";
import type { Opportunity } from "@/lib/market/model/types";
import { legIntervalChanges } from "@/lib/market/model/settlement-interval-changes";
import type { LegHistory, OpportunityHistory } from "@/lib/screener/leg-history";
import type { ScreenerView } from "@/lib/screener/screener-view";

const HISTORY_MS = 7 * 86_400_000;

/**
 * Both legs' funding settlements and interval changes of the 7 days up to the view's history end
 * (15 minutes back for a delayed view): the screener's chart (through its JSON route) and the
 * opportunity page (rendered with it) read the same. A leg's changes are the stored ones and
 * those its settlements show (legIntervalChanges), so a history without stored changes, such as
 * the offline sample's, still has its changes marked.
 */
export async function opportunityHistory(services: AppServices, view: Pick<ScreenerView, "historyUntil" | "delayed">, opportunity: Opportunity): Promise<OpportunityHistory> {
  const to = view.historyUntil;
  const from = new Date(to.getTime() - HISTORY_MS);
  const market = services.market("live");
  const legHistory = async (leg: MarketRef): Promise<LegHistory> => {
    const [settlements, changes] = await Promise.all([
      market.settlements(opportunity.symbol, leg, from, to),
      // A market changes its interval a few times a month at most: one page holds a week's.
      market.intervalChanges({ exchange: leg.exchange, symbol: opportunity.symbol, from, to, limit: 100, offset: 0 }),
    ]);
    const stored = changes.items.filter((change) => change.market === leg.market);
    return { exchange: leg.exchange, market: leg.market, settlements, intervalChanges: legIntervalChanges(stored, settlements) };
  };
  const [long, short] = await Promise.all([legHistory(opportunity.long), legHistory(opportunity.short)]);
  return { id: opportunity.id, long, short, from: from.toISOString(), to: to.toISOString(), delayed: view.delayed };
}
