import type { KeyMode } from "@/lib/keys/mode";
import type { Opportunity, OpportunityLeg } from "@/lib/market/types";
import { ApiError } from "./errors";
import type { ApiServices } from "./services";

/** How a request names a position's legs: an opportunity, or a long and a short {exchange, symbol}. */
export interface LegsInput {
  opportunity_id?: string;
  long?: { exchange: string; symbol: string };
  short?: { exchange: string; symbol: string };
}

export function fieldError(field: string, message: string) {
  return new ApiError("VALIDATION_ERROR", "Check the highlighted fields", { details: [{ field, message }] });
}

/**
 * The legs as the key's market (live or sandbox) has them now; a 400 naming the field when the
 * opportunity or a leg's market is not there. `opportunity` is the named one, or the first one
 * listing the long leg's market when the legs were given explicitly.
 */
export async function resolveLegs(services: ApiServices, mode: KeyMode, body: LegsInput) {
  const snapshot = await services.opportunities(mode);
  if (body.opportunity_id !== undefined) {
    const opportunity = snapshot.items.find((o) => o.id === body.opportunity_id);
    if (!opportunity) throw fieldError("opportunity_id", `No current opportunity with id "${body.opportunity_id}"`);
    return { opportunity, long: opportunity.long, short: opportunity.short };
  }
  // The body schemas guarantee both legs when no opportunity_id is given.
  const wanted = { long: body.long!, short: body.short! };
  const find = (side: "long" | "short"): { opportunity: Opportunity; leg: OpportunityLeg } => {
    const { exchange, symbol } = wanted[side];
    for (const o of snapshot.items) {
      if (o.symbol !== symbol) continue;
      if (o.long.exchange === exchange) return { opportunity: o, leg: o.long };
      if (o.short.exchange === exchange) return { opportunity: o, leg: o.short };
    }
    throw fieldError(`${side}.exchange`, `No current market for ${symbol} on ${exchange}`);
  };
  const long = find("long");
  const short = find("short");
  return { opportunity: long.opportunity, long: long.leg, short: short.leg };
}
