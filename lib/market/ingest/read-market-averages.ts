import type { Db } from "@/lib/db";
import { marketKey, type MarketAverage } from "./with-average-aprs";

const HOUR_MS = 3_600_000;
const DAY_HOURS = 24;
const WEEK_HOURS = 168;

/** Sums of annualised funding and of samples over some hours, per market. */
interface WindowSums {
  day: { apr: number; samples: number };
  week: { apr: number; samples: number };
}

interface AverageRow {
  exchange: string;
  market: string;
  day_apr: number | null;
  day_samples: number | null;
  week_apr: number | null;
  week_samples: number | null;
}

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
 * The same figures as readMarketAverages (hours up to and including the current one) for rounds,
 * which ask every minute: a week of hourly rows is ~2.5 million at 20 venues × 600 assets, so the
 * hours that can no longer change are summed once an hour and kept per database, and each call
 * adds only the last two hours' rows. Two, not one: a round that began in the previous hour may
 * still fold its observations into that hour after the next hour began.
 */
export async function readRoundAverages(db: Db, now = new Date()): Promise<Map<string, MarketAverage>> {
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
  const combined = new Map(settledByMarket);
  for (const [key, sums] of live) {
    const earlier = combined.get(key);
    combined.set(key, earlier ? addSums(earlier, sums) : sums);
  }
  return toAverages(combined);
}

const settledSums = new WeakMap<Db, { hour: number; sums: Promise<Map<string, WindowSums>> }>();

function hourOf(epochMs: number): number {
  return Math.floor(epochMs / HOUR_MS) * HOUR_MS;
}

/** Per market, the sums over hours in [from, to), and over those at or after `dayFrom` apart. */
async function sumHours(db: Db, from: number, to: number, dayFrom: number): Promise<Map<string, WindowSums>> {
  const day = new Date(dayFrom);
  const rows = await db.$queryRaw<AverageRow[]>`
    SELECT exchange, market,
      sum("aprSum") FILTER (WHERE hour >= ${day}) AS day_apr, sum(samples) FILTER (WHERE hour >= ${day}) AS day_samples,
      sum("aprSum") AS week_apr, sum(samples) AS week_samples
    FROM "FundingRateHourly" WHERE hour >= ${new Date(from)} AND hour < ${new Date(to)}
    GROUP BY exchange, market`;
  const sums = new Map<string, WindowSums>();
  for (const r of rows) {
    sums.set(marketKey(r.exchange, r.market), {
      day: { apr: Number(r.day_apr ?? 0), samples: Number(r.day_samples ?? 0) },
      week: { apr: Number(r.week_apr ?? 0), samples: Number(r.week_samples ?? 0) },
    });
  }
  return sums;
}

function addSums(a: WindowSums, b: WindowSums): WindowSums {
  return {
    day: { apr: a.day.apr + b.day.apr, samples: a.day.samples + b.day.samples },
    week: { apr: a.week.apr + b.week.apr, samples: a.week.samples + b.week.samples },
  };
}

function toAverages(sums: ReadonlyMap<string, WindowSums>): Map<string, MarketAverage> {
  const averages = new Map<string, MarketAverage>();
  for (const [key, { day, week }] of sums) {
    averages.set(key, {
      day: day.samples > 0 ? day.apr / day.samples : null,
      week: week.samples > 0 ? week.apr / week.samples : null,
    });
  }
  return averages;
}
