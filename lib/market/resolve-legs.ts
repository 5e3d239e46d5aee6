import { fieldError } from "@/lib/errors";
import type { Market } from "./market";
import type { Opportunity, OpportunityLeg } from "./model/types";

/** How a request names a position's legs: an opportunity, or a long and a short {exchange, symbol}. */
export interface LegsInput {
  opportunity_id?: string;
  long?: { exchange: string; symbol: string };
  short?: { exchange: string; symbol: string };
}

/**
 * The legs as the market has them now; a 400 naming the field when the opportunity or a leg's
 * market is not there. `opportunity` is the named one, or the first one listing the long leg's
 * market when the legs were given explicitly.
 */
export async function resolveLegs(market: Market, input: LegsInput) {
  const snapshot = await market.opportunities();
  if (input.opportunity_id !== undefined) {
    const opportunity = snapshot.byId(input.opportunity_id);
    if (!opportunity) throw fieldError("opportunity_id", `No current opportunity with id "${input.opportunity_id}"`);
    return { opportunity, long: opportunity.long, short: opportunity.short };
  }
  // The input schemas guarantee both legs when no opportunity_id is given.
  const wanted = { long: input.long!, short: input.short! };
  const find = (side: "long" | "short"): { opportunity: Opportunity; leg: OpportunityLeg } => {
    const { exchange, symbol } = wanted[side];
    for (const o of snapshot.groupOf(symbol)) {
      if (o.long.exchange === exchange) return { opportunity: o, leg: o.long };
      if (o.short.exchange === exchange) return { opportunity: o, leg: o.short };
    }
    throw fieldError(`${side}.exchange`, `No current market for ${symbol} on ${exchange}`);
  };
  const long = find("long");
  const short = find("short");
  return { opportunity: long.opportunity, long: long.leg, short: short.leg };
}
