import type { OpportunityLeg, Persistence } from "../model/types";
import { newArray, type TakeArray } from "../opportunities/encoding/scratch-arrays";
import type { PriceSpreadUnavailableReason } from "../model/price-spread";
import { carryOpportunityId } from "./carry-id";
import { CARRY_TYPES, type CarryOpportunity, type CarrySpotLeg, type CarryType } from "./carry-opportunity";

/**
 * A carry set held in columns, as the perp set is (../opportunities/encoding/columns.ts): a typed
 * array per field with a value per item, and each spot leg, perpetual leg, persistence object and
 * text once in a list. A spot market meets every perpetual of its asset (up to 46 venues' at
 * benchmark breadth) and a perpetual every spot venue's market: held as objects, each item repeating
 * both legs, ~200,000 items were 214 MB of JSON, seconds to build, store and read back. `carryItemAt`
 * builds the objects the API serves, only for the items asked for.
 *
 * Numbers the item serves as nullable (`borrow_apr`, `borrowable`, `basis_bps`) hold NaN for null:
 * every value stored is finite otherwise. An item's `id` and `symbol` are not stored: they follow
 * from its perpetual's symbol (`perpSymbols`), its type and its legs' venues.
 */
export interface CarryColumns {
  count: number;
  spots: readonly CarrySpotLeg[];
  perps: readonly OpportunityLeg[];
  /** The asset of each perpetual in `perps`, by the same position: the items' `symbol`. */
  perpSymbols: readonly string[];
  persistences: readonly Persistence[];
  /** `updated_at` and `basis_unavailable_reason` texts. */
  texts: readonly string[];
  spot: Uint32Array;
  perp: Uint32Array;
  /** A position in CARRY_TYPES. */
  type: Uint8Array;
  apr: Float64Array;
  net_apr: Float64Array;
  borrow_apr: Float64Array;
  borrowable: Float64Array;
  basis_bps: Float64Array;
  /** A position in `texts`, or NO_TEXT for null. */
  basis_reason: Uint32Array;
  updated_at: Uint32Array;
  persistence: Uint32Array;
}

/** `basis_reason`'s null. */
export const NO_TEXT = 0xffff_ffff;

/** The typed arrays of CarryColumns, in the order they are stored (widest first, so each stays aligned). */
export const CARRY_ARRAYS = [
  ["apr", Float64Array],
  ["net_apr", Float64Array],
  ["borrow_apr", Float64Array],
  ["borrowable", Float64Array],
  ["basis_bps", Float64Array],
  ["spot", Uint32Array],
  ["perp", Uint32Array],
  ["basis_reason", Uint32Array],
  ["updated_at", Uint32Array],
  ["persistence", Uint32Array],
  ["type", Uint8Array],
] as const;
export type CarryArrayName = (typeof CARRY_ARRAYS)[number][0];

/** Columns for `count` items, every value 0, over the lists given; their arrays taken with `take` (new ones without). */
export function emptyCarryColumns(
  count = 0,
  lists: Pick<CarryColumns, "spots" | "perps" | "perpSymbols" | "persistences" | "texts"> = { spots: [], perps: [], perpSymbols: [], persistences: [], texts: [] },
  take: TakeArray = newArray,
): CarryColumns {
  const { spots, perps, perpSymbols, persistences, texts } = lists;
  return {
    count,
    spots,
    perps,
    perpSymbols,
    persistences,
    texts,
    apr: take(Float64Array, count),
    net_apr: take(Float64Array, count),
    borrow_apr: take(Float64Array, count),
    borrowable: take(Float64Array, count),
    basis_bps: take(Float64Array, count),
    spot: take(Uint32Array, count),
    perp: take(Uint32Array, count),
    basis_reason: take(Uint32Array, count),
    updated_at: take(Uint32Array, count),
    persistence: take(Uint32Array, count),
    type: take(Uint8Array, count),
  };
}

/** The items at `positions`, in that order, over the same lists: a part of a set (tests, the webhooks' examples). */
export function pickCarryColumns(columns: CarryColumns, positions: readonly number[]): CarryColumns {
  const picked = emptyCarryColumns(positions.length, columns);
  for (const [name] of CARRY_ARRAYS) {
    const from = columns[name];
    const to = picked[name];
    positions.forEach((position, i) => (to[i] = from[position]!));
  }
  return picked;
}

export function carryIdAt(columns: CarryColumns, i: number): string {
  const perp = columns.perp[i]!;
  return carryIdOfLegs(columns.perpSymbols[perp]!, CARRY_TYPES[columns.type[i]!]!, columns.spots[columns.spot[i]!]!.exchange, columns.perps[perp]!.exchange);
}

/** The id of a pair of legs: the long venue first, so the spot venue for `spot_perp`. */
export function carryIdOfLegs(symbol: string, type: CarryType, spotExchange: string, perpExchange: string): string {
  return type === "spot_perp" ? carryOpportunityId(symbol, type, spotExchange, perpExchange) : carryOpportunityId(symbol, type, perpExchange, spotExchange);
}

const nullable = (value: number) => (Number.isNaN(value) ? null : value);

/** Item `i` as the API serves it: its fields in the schema's order, its legs and persistence shared with the other items'. */
export function carryItemAt(c: CarryColumns, i: number): CarryOpportunity {
  const reason = c.basis_reason[i]!;
  return {
    id: carryIdAt(c, i),
    symbol: c.perpSymbols[c.perp[i]!]!,
    type: CARRY_TYPES[c.type[i]!]!,
    spot: c.spots[c.spot[i]!]!,
    perp: c.perps[c.perp[i]!]!,
    apr: c.apr[i]!,
    net_apr: c.net_apr[i]!,
    borrow_apr: nullable(c.borrow_apr[i]!),
    borrowable: nullable(c.borrowable[i]!),
    basis_bps: nullable(c.basis_bps[i]!),
    basis_unavailable_reason: reason === NO_TEXT ? null : (c.texts[reason] as PriceSpreadUnavailableReason),
    updated_at: c.texts[c.updated_at[i]!]!,
    persistence: c.persistences[c.persistence[i]!]!,
  };
}

/** Every item as an object, in set order: for small sets (the sandbox's, tests); a live set is served a page at a time. */
export function carryItemsOf(columns: CarryColumns): CarryOpportunity[] {
  return Array.from({ length: columns.count }, (_, i) => carryItemAt(columns, i));
}
