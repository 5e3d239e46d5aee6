import { roundTo } from "@/lib/round";
import type { Persistence } from "../model/types";
import { medianInPlace, populationStddev } from "./series-stats";

export const HOUR_MS = 3_600_000;
/** The longer window: 30 days of whole hours. */
export const HOURS_30D = 720;
/** The shorter window: 7 days of whole hours, the last 168 of the 720. */
export const HOURS_7D = 168;
/**
 * A window's figure needs both legs in at least this share of its hours (126 of 168, 540 of 720):
 * fewer, and the history is too short or too gappy to stand for the window, so the figure is null.
 */
export const MIN_COVERAGE = 0.75;
export const MIN_HOURS_7D = Math.ceil(HOURS_7D * MIN_COVERAGE);
export const MIN_HOURS_30D = Math.ceil(HOURS_30D * MIN_COVERAGE);

/**
 * One market's history over the 720 whole hours before a computation's `through`, index 0 being
 * the hour starting at `through − 720 h`:
 * - `apr`: each hour's mean annualised funding (percent per year, FundingRateHourly aprSum / samples),
 *   NaN for an hour without an observation;
 * - `paid`: the last 168 hours' settled funding per hour (settled-hours.ts), NaN where not settled.
 */
export interface MarketSeries {
  apr: Float64Array;
  paid: Float64Array;
}

/**
 * A pair's persistence in one orientation: "first long, second short", the first being the market
 * whose `marketKey` sorts first (pairKey). orientPersistence turns it round for the other.
 */
export interface PairRecord {
  /** Epoch ms where the current run of same-signed net spreads began; null without one. */
  since: number | null;
  /** The run's sign: 1 when second − first was positive (first long pays off), −1 when negative, 0 without a run. */
  sinceSign: 1 | -1 | 0;
  /** Median hourly net spread (second − first), percent per year; null below the coverage. */
  median7: number | null;
  median30: number | null;
  /** Population standard deviation of the same 7-day hourly spreads; null below the coverage. */
  stddev7: number | null;
  /** Of the last 168 hours settled on both legs: those in which second paid more than first, and less. */
  secondPaidMore: number;
  firstPaidMore: number;
  settledHours: number;
}

/** The earlier computation a run longer than the window is followed from. */
export interface PreviousRecord {
  through: number;
  record: PairRecord;
}

const scratch30 = new Float64Array(HOURS_30D);
const scratch7 = new Float64Array(HOURS_7D);
const spread = new Float64Array(HOURS_30D);

/**
 * The persistence of the pair (first long, second short) from the two markets' series, for the
 * hours before `through` (epoch ms, an hour's start). A run of positive (or negative) spreads that
 * covers the whole window continues `previous`'s run when `previous` saw the same sign and its own
 * last hour lies within this window (so the two runs overlap and the spread never changed sign in
 * between); otherwise it is dated at the window's start, the earliest hour examined. Pure.
 */
export function computePairRecord(first: MarketSeries, second: MarketSeries, through: number, previous?: PreviousRecord): PairRecord {
  let n30 = 0;
  let n7 = 0;
  const start7 = HOURS_30D - HOURS_7D;
  for (let i = 0; i < HOURS_30D; i++) {
    const value = second.apr[i]! - first.apr[i]!;
    spread[i] = value;
    if (Number.isNaN(value)) continue;
    scratch30[n30++] = value;
    if (i >= start7) scratch7[n7++] = value;
  }
  const windowStart = through - HOURS_30D * HOUR_MS;
  const stddev = n7 >= MIN_HOURS_7D ? roundTo(populationStddev(scratch7, n7), 6) : null;
  const record: PairRecord = {
    ...currentRun(windowStart, previous),
    median7: n7 >= MIN_HOURS_7D ? roundTo(medianInPlace(scratch7, n7), 6) : null,
    median30: n30 >= MIN_HOURS_30D ? roundTo(medianInPlace(scratch30, n30), 6) : null,
    stddev7: stddev,
    secondPaidMore: 0,
    firstPaidMore: 0,
    settledHours: 0,
  };
  for (let j = 0; j < HOURS_7D; j++) {
    const net = second.paid[j]! - first.paid[j]!;
    if (Number.isNaN(net)) continue;
    record.settledHours++;
    if (net > 0) record.secondPaidMore++;
    else if (net < 0) record.firstPaidMore++;
  }
  return record;
}

/** The run of same-signed spreads ending with the window's last hour, from `spread`. */
function currentRun(windowStart: number, previous: PreviousRecord | undefined): Pick<PairRecord, "since" | "sinceSign"> {
  const last = spread[HOURS_30D - 1]!;
  if (Number.isNaN(last) || last === 0) return { since: null, sinceSign: 0 };
  const sign = last > 0 ? 1 : -1;
  let start = HOURS_30D - 1;
  // NaN (a leg not observed) fails the comparison, so a missing hour ends the run.
  while (start > 0 && sign * spread[start - 1]! > 0) start--;
  if (start === 0 && previous && previous.record.sinceSign === sign && previous.record.since !== null && previous.through >= windowStart) {
    return { since: previous.record.since, sinceSign: sign };
  }
  return { since: windowStart + start * HOUR_MS, sinceSign: sign };
}

/**
 * The opportunity's `persistence`, with `longIsFirst` saying whether its long leg is the record's
 * first market. `iso` formats instants (a caller formatting many may share the strings).
 */
export function orientPersistence(
  record: PairRecord,
  longIsFirst: boolean,
  through: number,
  iso: (ms: number) => string = (ms) => new Date(ms).toISOString(),
): Persistence {
  const sign = longIsFirst ? 1 : -1;
  const flip = (value: number | null) => (value === null ? null : roundTo(sign * value, 6));
  return {
    as_of: iso(through),
    positive_since: record.since !== null && record.sinceSign === sign ? iso(record.since) : null,
    apr_median_7d: flip(record.median7),
    apr_median_30d: flip(record.median30),
    paid_share_7d:
      record.settledHours >= MIN_HOURS_7D ? roundTo((longIsFirst ? record.secondPaidMore : record.firstPaidMore) / record.settledHours, 6) : null,
    apr_stddev_7d: record.stddev7,
  };
}
