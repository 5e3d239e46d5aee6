import type { Db } from "@/lib/db";
import { marketKey, type MarketAverage } from "./with-average-aprs";

const HOUR_MS = 3_600_000;

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
  const current = Math.floor(now.getTime() / HOUR_MS) * HOUR_MS;
  const last = options.wholeHoursBefore ? current - HOUR_MS : current;
  const day = new Date(last - 23 * HOUR_MS);
  const week = new Date(last - 167 * HOUR_MS);
  const end = new Date(last + HOUR_MS);
  const rows = await db.$queryRaw<{ exchange: string; market: string; day: number | null; week: number | null }[]>`
    SELECT exchange, market,
      sum("aprSum") FILTER (WHERE hour >= ${day}) / NULLIF(sum(samples) FILTER (WHERE hour >= ${day}), 0) AS day,
      sum("aprSum") / NULLIF(sum(samples), 0) AS week
    FROM "FundingRateHourly" WHERE hour >= ${week} AND hour < ${end}
    GROUP BY exchange, market`;
  const averages = new Map<string, MarketAverage>();
  for (const r of rows) {
    averages.set(marketKey(r.exchange, r.market), {
      day: r.day === null ? null : Number(r.day),
      week: r.week === null ? null : Number(r.week),
    });
  }
  return averages;
}
