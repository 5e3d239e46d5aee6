import type { Db } from "@/lib/db";
import { directSql } from "@/lib/db/direct-sql";
import { marketKey, type MarketAverage, type MarketAverages } from "../model/market-average";
import type { MarketSnapshot } from "../model/types";

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
 * In two parts, added up market by market where a market is averaged (`roundAverages`): the hours
 * that can no longer change, kept for the hour, and the last two hours', read by the hour's first
 * round and kept by the round memory after (`liveSumsAfter`). Merged
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
 * call adds only the last two hours' rows, or takes them as `kept` when they are of this hour
 * (RoundMemory). Two, not one: a round that began in the previous hour may still fold its
 * observations into that hour after the next hour began. A round reads them before storing its own
 * observations and adds those itself (`roundAverages`).
 */
export async function readRoundAverageSums(db: Db, now = new Date(), kept?: LiveSums): Promise<RoundAverageSums> {
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
  const live = kept?.hour === current ? kept.sums : sumHours(db, liveFrom, current + HOUR_MS, dayStart);
  const [settledByMarket, liveByMarket] = await Promise.all([settled.sums, live]);
  return { settled: settledByMarket, live: liveByMarket, weekFrom: weekStart, dayFrom: dayStart, to: current + HOUR_MS };
}

/**
 * The last two hours' sums (RoundAverageSums.live) of the hour beginning at `hour`, as a round that
 * read them leaves them in the database once its observations are folded (liveSumsAfter): the next
 * round of the hour takes them instead of reading them again (RoundMemory), which cost the round's
 * thread ~35 ms and the database a scan of the hour's rows at 46 venues × 600 assets.
 */
export interface LiveSums {
  hour: number;
  sums: ReadonlyMap<string, WindowSums>;
}

/**
 * `round`'s live sums with `observed` added as aggregateRound folds them (a snapshot with a rate and
 * an interval is one sample of its observation's hour), those of the live hours only: the database's
 * sums of those hours once the round is folded, when no other round was folded since they were read.
 * `round.live` itself when no observation falls in them; otherwise a copy, since the round's history
 * still ranks the micro-batches until the next round publishes. Pure.
 */
export function liveSumsAfter(round: RoundAverageSums, observed: readonly MarketSnapshot[]): LiveSums {
  const hour = round.to - HOUR_MS;
  const liveFrom = hour - HOUR_MS;
  let sums: Map<string, WindowSums> | undefined;
  for (const snapshot of observed) {
    if (snapshot.fundingRate === null || snapshot.fundingIntervalHours === null) continue;
    const at = hourOf(snapshot.observedAt);
    if (at < liveFrom || at >= round.to) continue;
    sums ??= new Map(round.live);
    const key = marketKey(snapshot.exchange, snapshot.market);
    const held = sums.get(key) ?? NONE;
    const apr = sampleApr(snapshot.fundingRate, snapshot.fundingIntervalHours);
    const inDay = at >= round.dayFrom;
    sums.set(key, {
      dayApr: held.dayApr + (inDay ? apr : 0),
      daySamples: held.daySamples + (inDay ? 1 : 0),
      weekApr: held.weekApr + apr,
      weekSamples: held.weekSamples + 1,
    });
  }
  return { hour, sums: sums ?? round.live };
}

/**
 * A round's averages: each market's stored sums with its own observation added, as aggregateRound
 * will fold it (a snapshot with a rate and an interval is one sample of its observation's hour),
 * worked out when the ranking asks for the market, which it does once. Built as a map of every
 * market first, a round made two maps and two objects a market (26,000 at 46 venues) and looked
 * each market up six times; each lookup in a map that size costs ~0.5 µs on a round's thread,
 * whose caches the ranking's columns fill. A market with neither stored hours nor an observation
 * in the week has none. Pure.
 */
export function roundAverages(round: RoundAverageSums): MarketAverages {
  return {
    get(key, observed) {
      const settled = round.settled.get(key);
      const live = round.live.get(key);
      let { dayApr, daySamples, weekApr, weekSamples } = settled ?? NONE;
      if (live !== undefined) {
        dayApr += live.dayApr;
        daySamples += live.daySamples;
        weekApr += live.weekApr;
        weekSamples += live.weekSamples;
      }
      const hour = hourOf(observed.observedAt);
      if (observed.fundingRate !== null && observed.fundingIntervalHours !== null && hour >= round.weekFrom && hour < round.to) {
        const apr = sampleApr(observed.fundingRate, observed.fundingIntervalHours);
        weekApr += apr;
        weekSamples += 1;
        if (hour >= round.dayFrom) {
          dayApr += apr;
          daySamples += 1;
        }
      } else if (settled === undefined && live === undefined) return undefined;
      return averageOf({ dayApr, daySamples, weekApr, weekSamples });
    },
  };
}

/** An observation's annualised funding as aggregateRound folds it into "aprSum". */
function sampleApr(rate: number, intervalHours: number): number {
  return ((rate * 8760) / intervalHours) * 100;
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

function toAverages(sums: ReadonlyMap<string, WindowSums>): Map<string, MarketAverage> {
  const averages = new Map<string, MarketAverage>();
  for (const [key, windowSums] of sums) averages.set(key, averageOf(windowSums));
  return averages;
}

function averageOf({ dayApr, daySamples, weekApr, weekSamples }: WindowSums): MarketAverage {
  return { day: daySamples > 0 ? dayApr / daySamples : null, week: weekSamples > 0 ? weekApr / weekSamples : null };
}
