import { OpportunitySnapshot } from "../opportunities/opportunity-query";
import { withPersistence } from "../persistence/persistence-set";
import { sandboxFundingHistory, sandboxHistoryKey } from "./sandbox-funding-history";
import { sandboxPersistence } from "./sandbox-persistence";
import { sandboxOpportunities } from "./sandbox-opportunities";
import type { Opportunity, OpportunityLeg } from "../model/types";

let current: OpportunitySnapshot | undefined;

/**
 * What test keys read: the generated sandbox market of the current minute, as an opportunity
 * snapshot (sorted orders and item JSON computed once per minute, not per request), each leg with
 * its last settlement from the sandbox's settlement history, as a live round reads it from storage,
 * and each pair's persistence from the sandbox's hourly history, as a live round attaches it.
 */
export function sandboxSnapshot(at: Date): OpportunitySnapshot {
  const { asOf } = sandboxOpportunities(at);
  if (current?.asOf !== asOf) current = new OpportunitySnapshot(sandboxItems(at).items, asOf, false);
  return current;
}

/**
 * The sandbox's served items of the minute containing `at`, built afresh (the snapshot above keeps
 * only the current minute's): what a sandbox tick's events compare (lib/events/sandbox-tick-events.ts).
 */
export function sandboxItems(at: Date): { asOf: string; items: Opportunity[] } {
  const { asOf, opportunities } = sandboxOpportunities(at);
  return { asOf, items: withPersistence(withLastSettlements(opportunities, new Date(asOf)), sandboxPersistence(new Date(asOf))) };
}

function withLastSettlements(opportunities: readonly Opportunity[], at: Date): Opportunity[] {
  const history = sandboxFundingHistory(at);
  const settled = (leg: OpportunityLeg, symbol: string): OpportunityLeg => {
    const last = history.get(sandboxHistoryKey(leg.exchange, symbol))?.findLast((s) => s.market === leg.market);
    return last ? { ...leg, last_settled_rate: last.funding_rate, last_settled_at: last.time } : leg;
  };
  return opportunities.map((o) => ({ ...o, long: settled(o.long, o.symbol), short: settled(o.short, o.symbol) }));
}
