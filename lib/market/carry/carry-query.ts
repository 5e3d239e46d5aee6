import { z } from "zod";
import { pageOf, type Page } from "@/lib/pagination";
import { AppError, invalidFields } from "@/lib/errors";
import { opportunitiesQuery } from "../opportunities/opportunity-query";
import { parseCarryOpportunityId } from "./carry-id";
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
 * A carry set as served: its items in set order (`apr` descending, then id: the order
 * rankCarryOpportunities gives), looked up by id, each other order sorted once per set. Nothing in
 * it moves with the clock, so an answer built from it holds until the next set.
 */
export class CarrySnapshot {
  private readonly sorted = new Map<CarrySort, readonly CarryOpportunity[]>();
  private ids: Map<string, CarryOpportunity> | undefined;

  constructor(
    /** In set order. */
    readonly items: readonly CarryOpportunity[],
    /** When the data behind the set was observed, ISO 8601 UTC; null before any set was published. */
    readonly asOf: string | null,
    readonly sample: boolean,
  ) {}

  /** The set served before any was published: empty, of no moment. */
  static empty(): CarrySnapshot {
    return new CarrySnapshot([], null, false);
  }

  byId(id: string): CarryOpportunity | undefined {
    this.ids ??= new Map(this.items.map((item) => [item.id, item]));
    return this.ids.get(id);
  }

  inOrder(sort: CarrySort): readonly CarryOpportunity[] {
    if (sort === "-apr") return this.items;
    let list = this.sorted.get(sort);
    if (!list) {
      list = [...this.items].sort(comparator(sort));
      this.sorted.set(sort, list);
    }
    return list;
  }
}

function comparator(sort: CarrySort): (a: CarryOpportunity, b: CarryOpportunity) => number {
  const field = sort.replace(/^-/, "") as "apr" | "net_apr";
  const descending = sort.startsWith("-");
  return (a, b) => {
    if (a[field] !== b[field]) return descending ? b[field] - a[field] : a[field] - b[field];
    return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
  };
}

/** Filters, sorts and pages a carry set, as queryOpportunities pages perp pairs: `exchange` either leg, `exchanges` both. */
export function queryCarry(snapshot: CarrySnapshot, filter: CarryFilter): Page<CarryOpportunity> {
  const matches = (item: CarryOpportunity) => {
    const legs = [item.spot.exchange, item.perp.exchange];
    return (
      (filter.type === undefined || item.type === filter.type) &&
      (filter.symbol === undefined || item.symbol === filter.symbol) &&
      (filter.exchange === undefined || legs.includes(filter.exchange)) &&
      (filter.exchanges === undefined || legs.every((leg) => filter.exchanges!.includes(leg))) &&
      (filter.min_apr === undefined || item.apr >= filter.min_apr)
    );
  };
  return pageOf(snapshot.inOrder(filter.sort).filter(matches), filter);
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
