import { z } from "zod";
import { pageFrom, type Page } from "@/lib/pagination";
import { runWhole, type Sliced } from "@/lib/time-slices";
import { AppError, invalidFields } from "@/lib/errors";
import { opportunitiesQuery } from "../opportunities/opportunity-query";
import { carryIdAt, carryItemAt, carryItemsOf, emptyCarryColumns, type CarryColumns } from "./carry-columns";
import { parseCarryOpportunityId } from "./carry-id";
import { carryOrderSlices } from "./carry-id-order";
import { CARRY_TYPES, type CarryOpportunity, type CarryType } from "./carry-opportunity";

export const CARRY_SORTS = ["apr", "-apr", "net_apr", "-net_apr"] as const;
export type CarrySort = (typeof CARRY_SORTS)[number];

const { limit, offset, exchange, exchanges, min_apr, symbol } = opportunitiesQuery.shape;

/**
 * The filters of GET /v1/carry-opportunities: those of GET /v1/opportunities that mean the same
 * here (the same schemas, so both accept and refuse alike), with `type` and the sorts a carry item has.
 */
export const carryOpportunitiesQuery = z.strictObject({
  limit,
  offset,
  type: z
    .enum(CARRY_TYPES, `Must be one of: ${CARRY_TYPES.join(", ")} (perpetual pairs are listed by /v1/opportunities)`)
    .optional()
    .describe("Only this side of the trade: `spot_perp` (long spot, short perpetual) or `perp_spot` (spot borrowed and sold, long perpetual)."),
  symbol,
  exchange: exchange.describe("Only opportunities with a leg on this exchange (the spot leg or the perpetual)."),
  exchanges: exchanges.describe(
    "Only opportunities with both legs on these exchanges, separated by commas (the venues you trade on), e.g. `binance,okx`.",
  ),
  min_apr,
  sort: z
    .enum(CARRY_SORTS, `Must be one of: ${CARRY_SORTS.join(", ")}`)
    .default("-apr")
    .describe("Sort field; a leading - sorts descending. Ties are broken by id, so pages are stable."),
});

export interface CarryFilter {
  limit: number;
  offset: number;
  type?: CarryType;
  symbol?: string;
  exchange?: string;
  /** Both legs among these. */
  exchanges?: readonly string[];
  min_apr?: number;
  sort: CarrySort;
}

/**
 * A carry set as served: its columns in set order (`apr` descending, then id: the order
 * rankCarryColumns gives), each other order sorted once per set, objects built only for the items
 * an answer holds. Nothing in it moves with the clock, so an answer built from it holds until the
 * next set.
 */
export class CarrySnapshot {
  private readonly sorted = new Map<CarrySort, Uint32Array>();

  constructor(
    readonly columns: CarryColumns,
    /** When the data behind the set was observed, ISO 8601 UTC; null before any set was published. */
    readonly asOf: string | null,
    readonly sample: boolean,
  ) {}

  /** The set served before any was published: empty, of no moment. */
  static empty(): CarrySnapshot {
    return new CarrySnapshot(emptyCarryColumns(), null, false);
  }

  get count(): number {
    return this.columns.count;
  }

  /** Every item as an object, in set order: for small sets (the sandbox's); a live set is served a page at a time. */
  allItems(): CarryOpportunity[] {
    return carryItemsOf(this.columns);
  }

  byId(id: string): CarryOpportunity | undefined {
    const parts = parseCarryOpportunityId(id);
    if (!parts) return undefined;
    const [spotExchange, perpExchange] = parts.type === "spot_perp" ? [parts.longExchange, parts.shortExchange] : [parts.shortExchange, parts.longExchange];
    const matches = itemMatcher(this.columns, { type: parts.type, symbol: parts.symbol, spotExchange, perpExchange });
    for (let i = 0; i < this.columns.count; i++) if (matches(i)) return carryItemAt(this.columns, i);
    return undefined;
  }

  /** The items' positions in `sort`'s order; null for set order. */
  inOrder(sort: CarrySort): Uint32Array | null {
    if (sort === "-apr") return null;
    let order = this.sorted.get(sort);
    if (!order) {
      order = runWhole(sortedOrder(this.columns, sort));
      this.sorted.set(sort, order);
    }
    return order;
  }
}

/**
 * The positions in `sort`'s order, ties by id: an ascending sort is the descending one of the
 * negated values, so each is one radix sort by the values and ids' places (carry-id-order.ts).
 */
function sortedOrder(c: CarryColumns, sort: Exclude<CarrySort, "-apr">): Sliced<Uint32Array> {
  const values = sort === "-net_apr" ? c.net_apr : (sort === "apr" ? c.apr : c.net_apr).map((value) => (value === 0 ? 0 : -value));
  const sides = { ...c, perpExchanges: c.perps.map((leg) => leg.exchange), spotExchanges: c.spots.map((leg) => leg.exchange) };
  return carryOrderSlices(values, sides, (i) => carryIdAt(c, i));
}

interface ItemTerms {
  type?: CarryType;
  symbol?: string;
  /** A leg on this venue, either. */
  exchange?: string;
  /** Both legs among these. */
  exchanges?: readonly string[];
  min_apr?: number;
  spotExchange?: string;
  perpExchange?: string;
}

/** Whether item `i` meets `terms`: each leg's part decided once per listed leg, not once per item. */
function itemMatcher(c: CarryColumns, terms: ItemTerms): (i: number) => boolean {
  const flags = <T>(list: readonly T[], test: (leg: T, at: number) => boolean) => Uint8Array.from(list, (leg, at) => Number(test(leg, at)));
  const spotOn = flags(c.spots, (leg) => leg.exchange === terms.exchange);
  const perpOn = flags(c.perps, (leg) => leg.exchange === terms.exchange);
  const spotAmong = flags(c.spots, (leg) => terms.exchanges === undefined || terms.exchanges.includes(leg.exchange));
  const perpAmong = flags(c.perps, (leg) => terms.exchanges === undefined || terms.exchanges.includes(leg.exchange));
  const spotIs = flags(c.spots, (leg) => terms.spotExchange === undefined || leg.exchange === terms.spotExchange);
  const perpIs = flags(c.perps, (leg, at) => (terms.perpExchange === undefined || leg.exchange === terms.perpExchange) && (terms.symbol === undefined || c.perpSymbols[at] === terms.symbol));
  const type = terms.type === undefined ? -1 : CARRY_TYPES.indexOf(terms.type);
  const minApr = terms.min_apr ?? -Infinity;
  return (i) => {
    const spot = c.spot[i]!;
    const perp = c.perp[i]!;
    return (
      (type < 0 || c.type[i] === type) &&
      perpIs[perp] === 1 &&
      spotIs[spot] === 1 &&
      (terms.exchange === undefined || spotOn[spot] === 1 || perpOn[perp] === 1) &&
      spotAmong[spot] === 1 &&
      perpAmong[perp] === 1 &&
      c.apr[i]! >= minApr
    );
  };
}

/** Filters, sorts and pages a carry set, as queryOpportunities pages perp pairs: `exchange` either leg, `exchanges` both. */
export function queryCarry(snapshot: CarrySnapshot, filter: CarryFilter): Page<CarryOpportunity> {
  const { columns } = snapshot;
  const order = snapshot.inOrder(filter.sort);
  const matches = itemMatcher(columns, filter);
  const items: CarryOpportunity[] = [];
  let total = 0;
  for (let r = 0; r < columns.count; r++) {
    const i = order ? order[r]! : r;
    if (!matches(i)) continue;
    if (total >= filter.offset && items.length < filter.limit) items.push(carryItemAt(columns, i));
    total += 1;
  }
  return pageFrom(items, total, filter);
}

/**
 * The carry opportunity of `id` in `snapshot`: a 400 naming `id` when it is not a carry id
 * (`<asset>-<spot_perp|perp_spot>-<long exchange>-<short exchange>`), a 404 when the set has none.
 */
export function carryOpportunityById(snapshot: CarrySnapshot, id: string): CarryOpportunity {
  if (!parseCarryOpportunityId(id)) {
    const message = `"${id}" is not a carry opportunity id: expected <asset>-<spot_perp|perp_spot>-<long exchange>-<short exchange>, e.g. BTC-spot_perp-binance-bybit (perpetual pairs are at /v1/opportunities/{id})`;
    throw invalidFields([{ field: "id", message }], message);
  }
  const item = snapshot.byId(id);
  if (!item) throw new AppError("NOT_FOUND", `No carry opportunity with id "${id}"`);
  return item;
}
