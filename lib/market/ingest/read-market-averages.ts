import type { Db } from "@/lib/db";
import { runWhole, type Sliced } from "@/lib/time-slices";
import { directSql } from "@/lib/db/direct-sql";
import type { MarketSnapshot } from "../model/types";
import { marketKey, type MarketAverage } from "../model/market-average";

const HOUR_MS = 3_600_000;
const DAY_HOURS = 24;
const WEEK_HOURS = 168;

/** Sums of annualised funding and of samples over the last day and week, per market. */
export interface WindowSums {
  dayApr: number;
  daySamples: number;
  weekApr: number;
  weekSamples: number;
}

/**
 * sumHours' answer: one list per column, a market at each position. With no rows in the window every
 * list is null (array_agg of nothing); a sum that is NaN or infinite comes as its text.
 */
type AverageColumns = [exchange: string[] | null, market: string[], dayApr: number[], daySamples: number[], weekApr: number[], weekSamples: number[]];

/**
 * Each market's mean annualised funding over the last 24 and 168 hours, from FundingRateHourly:
 * the hours up to and including the current one, or with `wholeHoursBefore` only the hours that
 * ended before `now` (a delayed view must not see the observations made after its moment).
 */
export async function readMarketAverages(
  db: Db,
  now = new Date(),
  options: { wholeHoursBefore?: boolean } = {},
): Promise<Map<string, MarketAverage>> {
  const current = hourOf(now.getTime());
  const last = options.wholeHoursBefore ? current - HOUR_MS : current;
  return toAverages(await sumHours(db, last - (WEEK_HOURS - 1) * HOUR_MS, last + HOUR_MS, last - (DAY_HOURS - 1) * HOUR_MS));
}

/**
 * A round's window sums per market, and the hours they cover: [weekFrom, to), the day from dayFrom.
 * In two parts, added up market by market where a market is averaged (`averageSlices`): the hours
 * that can no longer change, kept for the hour, and the last two hours', read every round. Merged
 * into one map first, every round copied 26,000 sums at 46 venues for the ~26,000 it looks up.
 */
export interface RoundAverageSums {
  settled: ReadonlyMap<string, WindowSums>;
  live: ReadonlyMap<string, WindowSums>;
  weekFrom: number;
  dayFrom: number;
  to: number;
}

/**
 * The sums behind readMarketAverages' figures (hours up to and including the current one), for
 * rounds, which ask every minute: a week of hourly rows is ~2.5 million at 20 venues × 600 assets,
 * so the hours that can no longer change are summed once an hour and kept per database, and each
 * call adds only the last two hours' rows. Two, not one: a round that began in the previous hour
 * may still fold its observations into that hour after the next hour began. A round reads them
 * before storing its own observations and adds those itself (`observedAverages`).
 */
export async function readRoundAverageSums(db: Db, now = new Date()): Promise<RoundAverageSums> {
  const current = hourOf(now.getTime());
  const weekStart = current - (WEEK_HOURS - 1) * HOUR_MS;
  const dayStart = current - (DAY_HOURS - 1) * HOUR_MS;
  const liveFrom = current - HOUR_MS;
  let settled = settledSums.get(db);
  if (settled?.hour !== current) {
    settled = { hour: current, sums: sumHours(db, weekStart, liveFrom, dayStart) };
    settledSums.set(db, settled);
    // A failed read is not kept: the next round asks again.
    settled.sums.catch(() => settledSums.delete(db));
  }
  const [settledByMarket, live] = await Promise.all([settled.sums, sumHours(db, liveFrom, current + HOUR_MS, dayStart)]);
  return { settled: settledByMarket, live, weekFrom: weekStart, dayFrom: dayStart, to: current + HOUR_MS };
}

/**
 * The averages of the markets in `observations`: each one's stored sums with its own observations
 * added, as aggregateRound would fold them (each snapshot with a rate and an interval is one sample
 * of its observation's hour). Only those markets: ranking looks up no other, and copying the sums
 * of every market stored first, then a round's, then averaging them all, took a round's thread a
 * tenth of a second at 46 venues. Pure.
 */
export function observedAverages(round: RoundAverageSums, observations: readonly MarketSnapshot[]): Map<string, MarketAverage> {
  return runWhole(averageSlices(round, observations));
}

/** Markets a slice of `averageSlices`. */
const AVERAGED_A_SLICE = 4_096;

/**
 * `observedAverages` pausing every AVERAGED_A_SLICE markets (lib/time-slices.ts): a round's 26,000
 * markets at 46 venues held the serving thread for a tenth of a second before its ranking began.
 */
export function* averageSlices(round: RoundAverageSums, observations: readonly MarketSnapshot[]): Sliced<Map<string, MarketAverage>> {
  // Each market's sums so far, its own: its stored sums with its observations added.
  const sums = new Map<string, WindowSums>();
  for (let i = 0; i < observations.length; i++) {
    if (i % AVERAGED_A_SLICE === AVERAGED_A_SLICE - 1) yield;
    const s = observations[i]!;
    const key = marketKey(s.exchange, s.market);
    let held = sums.get(key);
    if (held === undefined) {
      const settled = round.settled.get(key);
      const live = round.live.get(key);
      if (settled !== undefined || live !== undefined) {
        held = addedSums(settled ?? NONE, live ?? NONE);
        sums.set(key, held);
      }
    }
    if (s.fundingRate === null || s.fundingIntervalHours === null) continue;
    const hour = hourOf(s.observedAt);
    if (hour < round.weekFrom || hour >= round.to) continue;
    if (held === undefined) {
      held = { ...NONE };
      sums.set(key, held);
    }
    const apr = ((s.fundingRate * 8760) / s.fundingIntervalHours) * 100;
    held.weekApr += apr;
    held.weekSamples += 1;
    if (hour >= round.dayFrom) {
      held.dayApr += apr;
      held.daySamples += 1;
    }
  }
  yield;
  return toAverages(sums);
}

const NONE: WindowSums = Object.freeze({ dayApr: 0, daySamples: 0, weekApr: 0, weekSamples: 0 });

const settledSums = new WeakMap<Db, { hour: number; sums: Promise<Map<string, WindowSums>> }>();

function hourOf(epochMs: number): number {
  return Math.floor(epochMs / HOUR_MS) * HOUR_MS;
}

/**
 * Per market, the sums over hours in [from, to), and over those at or after `dayFrom` apart. A row
 * a market (16,000 at 20 venues × 600 assets), sent as one JSON text of six lists: one JSON.parse
 * costs the round's thread about half of what the driver's parsing of 16,000 rows field by field does.
 */
async function sumHours(db: Db, from: number, to: number, dayFrom: number): Promise<Map<string, WindowSums>> {
  // An aggregate without GROUP BY: always one row.
  const [answer] = await directSql(db).query<{ columns: string }>({
    text: `
    SELECT json_build_array(array_agg(exchange), array_agg(market), array_agg(day_apr), array_agg(day_samples),
      array_agg(week_apr), array_agg(week_samples))::text AS columns
    FROM (
      SELECT exchange, market,
        coalesce(sum("aprSum") FILTER (WHERE hour >= $1::timestamp(3)), 0) AS day_apr,
        coalesce(sum(samples) FILTER (WHERE hour >= $1::timestamp(3)), 0) AS day_samples,
        sum("aprSum") AS week_apr, sum(samples) AS week_samples
      FROM "FundingRateHourly" WHERE hour >= $2::timestamp(3) AND hour < $3::timestamp(3)
      GROUP BY exchange, market
    ) m`,
    values: [new Date(dayFrom).toISOString(), new Date(from).toISOString(), new Date(to).toISOString()],
  });
  const sums = new Map<string, WindowSums>();
  const [exchanges, markets, dayApr, daySamples, weekApr, weekSamples] = JSON.parse(answer!.columns) as AverageColumns;
  if (!exchanges) return sums;
  for (let i = 0; i < exchanges.length; i++) {
    sums.set(marketKey(exchanges[i]!, markets[i]!), {
      dayApr: Number(dayApr[i]),
      daySamples: Number(daySamples[i]),
      weekApr: Number(weekApr[i]),
      weekSamples: Number(weekSamples[i]),
    });
  }
  return sums;
}

/** A new sum of `a` and `b`. */
function addedSums(a: WindowSums, b: WindowSums): WindowSums {
  return { dayApr: a.dayApr + b.dayApr, daySamples: a.daySamples + b.daySamples, weekApr: a.weekApr + b.weekApr, weekSamples: a.weekSamples + b.weekSamples };
}

function toAverages(sums: ReadonlyMap<string, WindowSums>): Map<string, MarketAverage> {
  const averages = new Map<string, MarketAverage>();
  for (const [key, { dayApr, daySamples, weekApr, weekSamples }] of sums) {
    averages.set(key, {
      day: daySamples > 0 ? dayApr / daySamples : null,
      week: weekSamples > 0 ? weekApr / weekSamples : null,
    });
  }
  return averages;
}
