import { OpportunitySnapshot } from "./opportunity-query";
import { sandboxOpportunities } from "./sandbox/sandbox-opportunities";

let current: OpportunitySnapshot | undefined;

/**
 * What test keys read: the generated sandbox market of the current minute, as an opportunity
 * snapshot (sorted orders and item JSON computed once per minute, not per request).
 */
export function sandboxSnapshot(at: Date): OpportunitySnapshot {
  const { asOf, opportunities } = sandboxOpportunities(at);
  if (current?.asOf !== asOf) current = new OpportunitySnapshot(opportunities, asOf, false);
  return current;
}
