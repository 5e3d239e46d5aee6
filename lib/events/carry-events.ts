import type { CarryOpportunity } from "@/lib/market/carry/carry-opportunity";
import type { NewEvent } from "./event-data";

// Net APRs are rounded to a few decimals; a move of exactly the threshold must count whatever the float error.
const EPSILON = 1e-9;

/**
 * The carry events between two consecutive published carry sets, by id, with the perp pairs' rules
 * (derive-events.ts): in the new set only `carry_opportunity.opened`, in both with net APR moved by
 * at least `threshold` APR points `carry_opportunity.updated`, in the old set only
 * `carry_opportunity.closed`; opened and updated in the new set's order, then closed in the old
 * set's. A carry set is a few spot venues' worth of items, held as objects, so a map of the old
 * ids is all the index it needs. Pure.
 */
export function carryEvents(previous: readonly CarryOpportunity[], current: readonly CarryOpportunity[], threshold: number): NewEvent[] {
  const before = new Map(previous.map((item) => [item.id, item]));
  const events: NewEvent[] = [];
  for (const item of current) {
    const old = before.get(item.id);
    if (old === undefined) {
      events.push({ type: "carry_opportunity.opened", data: { opportunity: item } });
      continue;
    }
    before.delete(item.id);
    if (Math.abs(item.net_apr - old.net_apr) + EPSILON >= threshold) {
      events.push({ type: "carry_opportunity.updated", data: { opportunity: item, previous_net_apr: old.net_apr } });
    }
  }
  // What is left of the old set was closed, in the old set's order (a Map keeps insertion order).
  for (const old of before.values()) {
    events.push({
      type: "carry_opportunity.closed",
      data: {
        id: old.id,
        symbol: old.symbol,
        type: old.type,
        spot: { exchange: old.spot.exchange, market: old.spot.market },
        perp: { exchange: old.perp.exchange, market: old.perp.market },
        last_apr: old.apr,
        last_net_apr: old.net_apr,
      },
    });
  }
  return events;
}
