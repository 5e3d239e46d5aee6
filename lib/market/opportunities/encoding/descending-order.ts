import { runWhole, type Sliced } from "@/lib/time-slices";
import { newArray, OVERWRITTEN, type TakeArray } from "./scratch-arrays";

/**
 * The positions of `values` from the largest to the smallest; equal values by `tieKeys` from the
 * smallest up when given, and then in position order. A least-significant-digit radix sort, 16 bits
 * a pass, no comparisons: the tie keys' two passes first, then four of each double's bits made to
 * sort as unsigned integers (negative numbers with every bit flipped, the others with the sign bit
 * set) and inverted, so the largest comes first, or two of their counts of millionths where every
 * value is a whole number of them (`inMicros`); a pass whose digit every key shares is skipped.
 * Values are finite, and −0 is never among them (roundTo makes it 0).
 */
export function descendingOrder(values: Float64Array, tieKeys?: Uint32Array): Uint32Array {
  return runWhole(descendingOrderSlices(values, tieKeys));
}

/**
 * `descendingOrder` as sliced work (lib/time-slices.ts), pausing between its passes: a round's
 * 400,000 pairs at 46 venues are six passes of about 50 ms each on a loaded machine, which at once
 * held the serving thread for a third of a second.
 */
export function* descendingOrderSlices(values: Float64Array, tieKeys?: Uint32Array, take: TakeArray = newArray): Sliced<Uint32Array> {
  const count = values.length;
  // Every working array but the counts is written whole before it is read (OVERWRITTEN).
  const micros = take(Uint32Array, count, OVERWRITTEN);
  let passes: (readonly [Uint32Array, number])[];
  if (inMicros(values, micros)) passes = [[micros, 0], [micros, 16]];
  else {
    const words = new Uint32Array(values.buffer, values.byteOffset, count * 2);
    // Little-endian: word 2i is the low half of value i, 2i + 1 the high half with the sign.
    const low = micros;
    const high = take(Uint32Array, count, OVERWRITTEN);
    for (let i = 0; i < count; i++) {
      const negative = words[2 * i + 1]! >>> 31 === 1;
      low[i] = negative ? words[2 * i]! : ~words[2 * i]! >>> 0;
      high[i] = negative ? words[2 * i + 1]! : ~(words[2 * i + 1]! | 0x8000_0000) >>> 0;
    }
    passes = [[low, 0], [low, 16], [high, 0], [high, 16]];
  }
  yield;
  let order = take(Uint32Array, count, OVERWRITTEN);
  for (let i = 0; i < count; i++) order[i] = i;
  let next = take(Uint32Array, count, OVERWRITTEN);
  const counts = take(Uint32Array, 65_537);
  if (tieKeys) passes.unshift([tieKeys, 0], [tieKeys, 16]);
  for (const [keys, shift] of passes) {
    // A pass's digit counts do not depend on the order, so they are counted in position order
    // (reading the keys in the order of the previous pass jumped about memory for each one).
    counts.fill(0);
    for (let i = 0; i < count; i++) counts[((keys[i]! >>> shift) & 0xffff) + 1]! += 1;
    // Every key of one digit (the high bits of APRs of one magnitude): the pass moves nothing.
    if (count === 0 || counts[((keys[0]! >>> shift) & 0xffff) + 1] === count) continue;
    for (let d = 1; d < counts.length; d++) counts[d]! += counts[d - 1]!;
    for (let i = 0; i < count; i++) {
      const at = order[i]!;
      next[counts[(keys[at]! >>> shift) & 0xffff]!++] = at;
    }
    [order, next] = [next, order];
    yield;
  }
  return order;
}

const MICROS = 1e6;
const HALF_SPAN = 2 ** 31;

/**
 * Fills `keys` with each value as a count of millionths, made to sort ascending for values
 * descending, when every value is a whole number of millionths within ±2^31 of them (APRs rounded
 * to six decimals, as the ranking's are, under ±2,147 %); false otherwise, `keys` then in any state.
 * Two passes sort such keys where a double's bits take four: a fifth of a round's sort. Distinct
 * values are distinct counts, in the same order, so the order is the one the bits give.
 */
function inMicros(values: Float64Array, keys: Uint32Array): boolean {
  for (let i = 0; i < values.length; i++) {
    const value = values[i]!;
    const n = Math.round(value * MICROS);
    if (n / MICROS !== value || n >= HALF_SPAN || n < -HALF_SPAN) return false;
    keys[i] = HALF_SPAN - 1 - n;
  }
  return true;
}
