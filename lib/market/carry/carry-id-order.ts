import { runWhole, type Sliced } from "@/lib/time-slices";
import { descendingOrderSlices } from "../opportunities/encoding/descending-order";
import { newArray, type TakeArray } from "../opportunities/encoding/scratch-arrays";
import { byAprThenText, compareText } from "../opportunities/rank-opportunities";
import { CARRY_TYPES } from "./carry-opportunity";

const SPOT_PERP = CARRY_TYPES.indexOf("spot_perp");

/** What an item's id is made of, by positions: its perpetual's, its spot market's and its type. */
export interface CarryIdSides {
  count: number;
  perp: Uint32Array;
  spot: Uint32Array;
  /** A position in CARRY_TYPES. */
  type: Uint8Array;
  /** Each perpetual's asset and venue, by position. */
  perpSymbols: readonly string[];
  perpExchanges: readonly string[];
  spotExchanges: readonly string[];
}

/**
 * The items' positions from the largest `values` to the smallest, equal values in id order
 * (`<asset>-<type>-<long venue>-<short venue>`, code units): carry's `rankedBefore`. The ids are put
 * in order by numbers, as the perp set's are (`idOrderPlaces`): the asset's place (`asset-` against
 * `asset-`), then the type's, the long venue's (`venue-`) and the short venue's, all one radix sort
 * with the values. Only when an asset or venue has a `-` in its name (a shorter name's `x-` could
 * start a longer one) or the places overflow 32 bits are ties compared as the id texts.
 */
export function* carryOrderSlices(values: Float64Array, sides: CarryIdSides, idOf: (i: number) => string, take: TakeArray = newArray): Sliced<Uint32Array> {
  const { count, perp, spot, type } = sides;
  const symbolNames = new Set(sides.perpSymbols);
  const venueNames = new Set([...sides.perpExchanges, ...sides.spotExchanges]);
  const rank = (names: Iterable<string>, suffix: string) => new Map([...names].sort((a, b) => compareText(a + suffix, b + suffix)).map((name, i) => [name, i]));
  const v = venueNames.size;
  const exact = symbolNames.size * CARRY_TYPES.length * v * v <= 2 ** 32 && ![...symbolNames, ...venueNames].some((name) => name.includes("-"));
  if (!exact) return yield* byAprThenText(values, idOf);
  const symbols = rank(symbolNames, "-");
  const longs = rank(venueNames, "-");
  const shorts = rank(venueNames, "");
  // Each leg's places looked up once, not once per item.
  const perpSymbol = Uint32Array.from(sides.perpSymbols, (symbol) => symbols.get(symbol)!);
  const perpLong = Uint32Array.from(sides.perpExchanges, (exchange) => longs.get(exchange)!);
  const perpShort = Uint32Array.from(sides.perpExchanges, (exchange) => shorts.get(exchange)!);
  const spotLong = Uint32Array.from(sides.spotExchanges, (exchange) => longs.get(exchange)!);
  const spotShort = Uint32Array.from(sides.spotExchanges, (exchange) => shorts.get(exchange)!);
  // perp_spot's id sorts before spot_perp's: "p" < "s".
  const typePlace = Uint8Array.from(CARRY_TYPES, (name) => [...CARRY_TYPES].sort().indexOf(name));
  const places = take(Uint32Array, count);
  for (let i = 0; i < count; i++) {
    if (i % PLACES_A_SLICE === PLACES_A_SLICE - 1) yield;
    const p = perp[i]!;
    const s = spot[i]!;
    const t = type[i]!;
    const spotIsLong = t === SPOT_PERP;
    const long = spotIsLong ? spotLong[s]! : perpLong[p]!;
    const short = spotIsLong ? perpShort[p]! : spotShort[s]!;
    places[i] = ((perpSymbol[p]! * CARRY_TYPES.length + typePlace[t]!) * v + long) * v + short;
  }
  yield;
  return yield* descendingOrderSlices(values, places, take);
}

const PLACES_A_SLICE = 8_192;

/** carryOrderSlices at once. */
export function carryOrder(values: Float64Array, sides: CarryIdSides, idOf: (i: number) => string): Uint32Array {
  return runWhole(carryOrderSlices(values, sides, idOf));
}
