import { carryIdAt, carryItemAt, type CarryColumns } from "@/lib/market/carry/carry-columns";
import { CARRY_TYPES } from "@/lib/market/carry/carry-opportunity";
import type { NewEvent } from "./event-data";

// Net APRs are rounded to a few decimals; a move of exactly the threshold must count whatever the float error.
const EPSILON = 1e-9;

/**
 * The carry events between two consecutive published carry sets, by pair (an id names its asset,
 * type and venues), with the perp pairs' rules (derive-events.ts): in the new set only
 * `carry_opportunity.opened`, in both with net APR moved by at least `threshold` APR points
 * `carry_opportunity.updated`, in the old set only `carry_opportunity.closed`; opened and updated in
 * the new set's order, then closed in the old set's. Pairs are matched by numbers (`pairKeys`), not
 * by ~200,000 id texts, and objects are built only for the items an event is about. Pure.
 */
export function carryEvents(previous: CarryColumns, current: CarryColumns, threshold: number): NewEvent[] {
  const keys = pairKeys(previous, current);
  const before = new Map<number, number>();
  for (let i = 0; i < previous.count; i++) before.set(keys.previous(i), i);
  const matched = new Uint8Array(previous.count);
  const events: NewEvent[] = [];
  for (let i = 0; i < current.count; i++) {
    const old = before.get(keys.current(i));
    if (old === undefined) {
      events.push({ type: "carry_opportunity.opened", data: { opportunity: carryItemAt(current, i) } });
      continue;
    }
    matched[old] = 1;
    if (Math.abs(current.net_apr[i]! - previous.net_apr[old]!) + EPSILON >= threshold) {
      events.push({ type: "carry_opportunity.updated", data: { opportunity: carryItemAt(current, i), previous_net_apr: previous.net_apr[old]! } });
    }
  }
  for (let i = 0; i < previous.count; i++) {
    if (matched[i] === 1) continue;
    const spot = previous.spots[previous.spot[i]!]!;
    const perp = previous.perps[previous.perp[i]!]!;
    events.push({
      type: "carry_opportunity.closed",
      data: {
        id: carryIdAt(previous, i),
        symbol: previous.perpSymbols[previous.perp[i]!]!,
        type: CARRY_TYPES[previous.type[i]!]!,
        spot: { exchange: spot.exchange, market: spot.market },
        perp: { exchange: perp.exchange, market: perp.market },
        last_apr: previous.apr[i]!,
        last_net_apr: previous.net_apr[i]!,
      },
    });
  }
  return events;
}

/**
 * A number per pair, the same in both sets for the same id: its perpetual's asset and venue and its
 * spot venue numbered once per listed leg, then combined with the type.
 */
function pairKeys(previous: CarryColumns, current: CarryColumns) {
  const perpNumbers = new Map<string, number>();
  const spotNumbers = new Map<string, number>();
  const number = (numbers: Map<string, number>, name: string) => {
    let n = numbers.get(name);
    if (n === undefined) numbers.set(name, (n = numbers.size));
    return n;
  };
  // A symbol never holds a NUL, so symbol and venue stay apart.
  const perpsOf = (c: CarryColumns) => Uint32Array.from(c.perps, (leg, at) => number(perpNumbers, `${c.perpSymbols[at]}\u0000${leg.exchange}`));
  const spotsOf = (c: CarryColumns) => Uint32Array.from(c.spots, (leg) => number(spotNumbers, leg.exchange));
  const lists = [previous, current].map((c) => ({ c, perps: perpsOf(c), spots: spotsOf(c) }));
  const spotVenues = spotNumbers.size;
  const keyOf =
    ({ c, perps, spots }: (typeof lists)[number]) =>
    (i: number) =>
      (perps[c.perp[i]!]! * spotVenues + spots[c.spot[i]!]!) * CARRY_TYPES.length + c.type[i]!;
  return { previous: keyOf(lists[0]!), current: keyOf(lists[1]!) };
}
