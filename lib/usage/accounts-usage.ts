import type { Db } from "@/lib/db";
import { Prisma } from "@/lib/db/generated/client";
import { tierFromDb, type Tier } from "@/lib/keys/permissions";
import { addCounts, emptyCounts, type UsageCounts } from "./usage-counts";
import { resolveUsageRange } from "./usage-range";

export const BUSIEST_ACCOUNTS_LIMIT = 20;

/** One account's requests over the last 24 hours and the last 30 days, as the operator console shows them. */
export interface AccountUsageSummary {
  userId: string;
  email: string;
  tier: Tier;
  lastDay: UsageCounts;
  lastMonth: UsageCounts;
}

/**
 * Usage per account for the operator console: the accounts with the most requests in the last
 * 30 days (at most `limit`), or with `userIds` those accounts (the ones without usage left out).
 * The windows are the Account → Usage page's defaults: the last 24 hourly and 30 daily buckets.
 */
export async function accountsUsage(
  db: Db,
  options: { userIds?: readonly string[]; limit?: number } = {},
  now: Date = new Date(),
): Promise<AccountUsageSummary[]> {
  if (options.userIds?.length === 0) return [];
  const dayFrom = resolveUsageRange({ granularity: "hour" }, now).from;
  const monthFrom = resolveUsageRange({ granularity: "day" }, now).from;
  const only = options.userIds ? Prisma.sql`AND "userId" = ANY(${[...options.userIds]}::text[])` : Prisma.empty;
  const rows = await db.$queryRaw<{ userId: string; ds: number; dc: number; dr: number; de: number; ms: number; mc: number; mr: number; me: number }[]>`
    SELECT "userId",
      coalesce(sum(successes) FILTER (WHERE hour >= ${dayFrom}), 0)::float8 AS ds,
      coalesce(sum("clientErrors") FILTER (WHERE hour >= ${dayFrom}), 0)::float8 AS dc,
      coalesce(sum("rateLimited") FILTER (WHERE hour >= ${dayFrom}), 0)::float8 AS dr,
      coalesce(sum("serverErrors") FILTER (WHERE hour >= ${dayFrom}), 0)::float8 AS de,
      sum(successes)::float8 AS ms, sum("clientErrors")::float8 AS mc, sum("rateLimited")::float8 AS mr, sum("serverErrors")::float8 AS me
    FROM "ApiUsageHourly"
    WHERE hour >= ${monthFrom} ${only}
    GROUP BY "userId"
    ORDER BY sum(successes + "clientErrors" + "rateLimited" + "serverErrors") DESC, "userId"
    LIMIT ${options.limit ?? options.userIds?.length ?? BUSIEST_ACCOUNTS_LIMIT}::int`;
  const users = await db.user.findMany({ where: { id: { in: rows.map((row) => row.userId) } }, select: { id: true, email: true, tier: true } });
  const byId = new Map(users.map((user) => [user.id, user]));
  return rows.flatMap((row) => {
    const user = byId.get(row.userId);
    if (!user) return [];
    const counts = (s: number, c: number, r: number, e: number) =>
      addCounts(emptyCounts(), { successes: Number(s), client_errors: Number(c), rate_limited: Number(r), server_errors: Number(e) });
    return [
      {
        userId: row.userId,
        email: user.email,
        tier: tierFromDb(user.tier),
        lastDay: counts(row.ds, row.dc, row.dr, row.de),
        lastMonth: counts(row.ms, row.mc, row.mr, row.me),
      },
    ];
  });
}
