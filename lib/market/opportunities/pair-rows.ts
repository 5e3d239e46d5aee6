import { roundTo } from "@/lib/round";
import { netApr } from "../model/apr";
import { pairAverage } from "../model/market-average";
import { roundedSpreadBps, unavailableReasonOf, type PriceSpreadUnavailableReason } from "../model/price-spread";
import { PERSISTENCE_FIGURES } from "../persistence/persistence-set";
import { emptyColumnArrays, type ColumnArrays } from "./encoding/columns";

// Where each figure of a paired market is in its record (the ranking's `pairedFigures`);
// positions (symbol, leg, observed) as numbers, exact below 2 ** 53.
export const SYMBOL = 0;
export const LEG = 1;
export const OBSERVED = 2;
export const OBSERVED_AT = 3;
export const ANNUALISED_PCT = 4;
export const TAKER_FEE = 5;
export const RATE_8H = 6;
export const UNIT_PRICE = 7;
export const OPEN_INTEREST_USD = 8;
export const VOLUME_24H_USD = 9;
export const AVERAGE_DAY = 10;
export const AVERAGE_WEEK = 11;
export const FIGURES = 12;
/** A row whose pair the persistence set does not hold (`sinceOfRow`), below any positive_since place and its -1 for null. */
export const NO_SLOT = -2;

/** `reasonCodes`' numbers: a row's price_spread_unavailable_reason, 0 for none. */
export const REASONS: readonly (PriceSpreadUnavailableReason | null)[] = [null, "price_missing", "observation_time_unknown", "legs_observed_apart"];

/**
 * What the ranking's rows are written from, all numbers in typed arrays, so that another thread
 * can write a range of them when the arrays are shared (SharedArrayBuffer): pairs by the position
 * pass 1 formed them in (`longOf`, `shortOf` positions in `paired`, `aprs`, each pair's
 * `pairFigures`), `order` the rows' pairs, `f` each paired market's FIGURES, and the columns, all
 * views of `slab` as emptyColumnArrays lays them out for `count` items.
 */
export interface PairRowInputs {
  count: number;
  slab: ArrayBufferLike;
  order: Uint32Array;
  longOf: Uint32Array;
  shortOf: Uint32Array;
  aprs: Float64Array;
  /** Each pair's persistence figures (PERSISTENCE_FIGURES, the last its positive_since's place or NO_SLOT); none without a persistence set. */
  pairFigures: Float64Array | undefined;
  f: Float64Array;
  /** Written: each row's positive_since place (-1 for null), or NO_SLOT. */
  sinceOfRow: Int32Array;
  /** Written: each row's REASONS number. */
  reasonCodes: Uint8Array;
  holdingDays: number;
  /** Whether the pairs' day and week averages are written (the ranking was given averages). */
  averages: boolean;
}

/** The columns `inputs` writes, laid out in its slab: another thread's views of the same memory. */
export function pairRowColumns(inputs: PairRowInputs): ColumnArrays {
  return emptyColumnArrays(inputs.count, inputs.slab);
}

/**
 * Rows `from` to `to` of the ranked columns `c`: each row's pair gathered in order first, in a loop
 * of nothing else (the sort leaves the pairs in no order memory likes, and a loop this short has
 * many of its reads under way at once), then the figures in a few loops of a few columns each, so
 * V8 inlines what each calls (one loop of every column made a heap number of each figure it was
 * answered). The texts are left to the caller, which adds them to the set's list in row order
 * (`sinceOfRow`, `reasonCodes`): rows written on two threads give the same set as on one.
 */
export function writePairRows(inputs: PairRowInputs, c: ColumnArrays, from: number, to: number): void {
  gather(inputs, c, from, to);
  writeFigures(inputs, c, from, to);
  writePrices(inputs, c, from, to);
  if (inputs.averages) writeAverages(inputs, c, from, to);
  writePersistenceAndLegs(inputs, c, from, to);
}

function gather({ order, longOf, shortOf, aprs, pairFigures, sinceOfRow }: PairRowInputs, c: ColumnArrays, from: number, to: number): void {
  const { long: longs, short: shorts, apr } = c;
  const median7s = c["persistence.apr_median_7d"].values;
  const median30s = c["persistence.apr_median_30d"].values;
  const paidShares = c["persistence.paid_share_7d"].values;
  const stddev7s = c["persistence.apr_stddev_7d"].values;
  for (let r = from; r < to; r++) {
    const p = order[r]!;
    longs[r] = longOf[p]!;
    shorts[r] = shortOf[p]!;
    apr.put(r, aprs[p]!);
    if (pairFigures) {
      const at = p * PERSISTENCE_FIGURES;
      median7s[r] = pairFigures[at]!;
      median30s[r] = pairFigures[at + 1]!;
      paidShares[r] = pairFigures[at + 2]!;
      stddev7s[r] = pairFigures[at + 3]!;
      sinceOfRow[r] = pairFigures[at + 4]!;
    } else sinceOfRow[r] = NO_SLOT;
  }
}

function writeFigures({ f, holdingDays }: PairRowInputs, c: ColumnArrays, from: number, to: number): void {
  const { long: longs, short: shorts, symbol: symbols, net_apr: netCol, funding_spread_8h: spreadCol, open_interest_usd: oiCol, volume_24h_usd: volCol } = c;
  for (let r = from; r < to; r++) {
    // Each side's figures: one record of FIGURES numbers (a cache line or two), not a read in each of a dozen arrays.
    const l = longs[r]! * FIGURES;
    const s = shorts[r]! * FIGURES;
    symbols[r] = f[l + SYMBOL]!;
    const net = netApr(f[s + ANNUALISED_PCT]! - f[l + ANNUALISED_PCT]!, f[l + TAKER_FEE]!, f[s + TAKER_FEE]!, holdingDays);
    netCol.putKnown(r, roundTo(net, 6));
    // fundingSpread8h, each side's ratePer8h computed once per market.
    spreadCol.putKnown(r, roundTo(f[s + RATE_8H]! - f[l + RATE_8H]!, 12));
    // A pair is only as deep as its shallower leg; unknown (NaN) on either side is unknown.
    oiCol.putKnown(r, Math.min(f[l + OPEN_INTEREST_USD]!, f[s + OPEN_INTEREST_USD]!));
    volCol.putKnown(r, Math.min(f[l + VOLUME_24H_USD]!, f[s + VOLUME_24H_USD]!));
  }
}

function writePrices({ f, reasonCodes }: PairRowInputs, c: ColumnArrays, from: number, to: number): void {
  const { long: longs, short: shorts, price_spread_bps: spreadCol, updated_at: updated } = c;
  for (let r = from; r < to; r++) {
    const l = longs[r]! * FIGURES;
    const s = shorts[r]! * FIGURES;
    const longPrice = f[l + UNIT_PRICE]!;
    const longAt = f[l + OBSERVED_AT]!;
    const shortPrice = f[s + UNIT_PRICE]!;
    const shortAt = f[s + OBSERVED_AT]!;
    const reason = unavailableReasonOf(longPrice, longAt, shortPrice, shortAt);
    spreadCol.putKnown(r, reason === null ? roundedSpreadBps(longPrice, shortPrice) : Number.NaN);
    reasonCodes[r] = REASONS.indexOf(reason);
    updated[r] = longAt <= shortAt ? f[l + OBSERVED]! : f[s + OBSERVED]!;
  }
}

function writeAverages({ f }: PairRowInputs, c: ColumnArrays, from: number, to: number): void {
  const { long: longs, short: shorts, apr_1d_avg: dayCol, apr_7d_avg: weekCol } = c;
  for (let r = from; r < to; r++) {
    const l = longs[r]! * FIGURES;
    const s = shorts[r]! * FIGURES;
    dayCol.putKnown(r, pairAverage(f[s + AVERAGE_DAY]!, f[l + AVERAGE_DAY]!));
    weekCol.putKnown(r, pairAverage(f[s + AVERAGE_WEEK]!, f[l + AVERAGE_WEEK]!));
  }
}

/** Last: it turns each row's markets' positions in `paired` into their legs' positions. Persistence is unknown (null) where the set does not hold the pair. */
function writePersistenceAndLegs({ f, sinceOfRow }: PairRowInputs, c: ColumnArrays, from: number, to: number): void {
  const { long: longs, short: shorts } = c;
  const median7 = c["persistence.apr_median_7d"];
  const median30 = c["persistence.apr_median_30d"];
  const paidShare = c["persistence.paid_share_7d"];
  const stddev7 = c["persistence.apr_stddev_7d"];
  for (let r = from; r < to; r++) {
    if (sinceOfRow[r]! !== NO_SLOT) {
      // The figures the gathering loop put in their columns' values.
      median7.putKnown(r, median7.values[r]!);
      median30.putKnown(r, median30.values[r]!);
      paidShare.putKnown(r, paidShare.values[r]!);
      stddev7.putKnown(r, stddev7.values[r]!);
    } else {
      median7.putKnown(r, Number.NaN);
      median30.putKnown(r, Number.NaN);
      paidShare.putKnown(r, Number.NaN);
      stddev7.putKnown(r, Number.NaN);
    }
    longs[r] = f[longs[r]! * FIGURES + LEG]!;
    shorts[r] = f[shorts[r]! * FIGURES + LEG]!;
  }
}
