import type { Actor } from "@/lib/actor";
import type { Db } from "@/lib/db";
import { Prisma } from "@/lib/db/generated/client";
import { keyStatus } from "@/lib/keys/account-keys";
import { keyModeFromDb } from "@/lib/keys/mode";
import type { Tier } from "@/lib/keys/permissions";
import { buildUsageReport, type UsageBucketRow, type UsageReport } from "./usage-report";
import type { UsageRange } from "./usage-range";

/** What the usage report needs of the services (lib/app-services.ts): the database and each plan's per-key limit. */
export interface UsageServices {
  db: () => Promise<Db>;
  requestsPerMinute: (tier: Tier) => number;
}

/**
 * The actor's account's usage over a range: the hourly rows summed per key, route and bucket in the
 * database (a day is the sum of its UTC hours), then shaped by `buildUsageReport`. Every key of
 * the account counts, live and test alike: the account is who the limits and the bill concern.
 */
export async function readAccountUsage(services: UsageServices, actor: Pick<Actor, "userId" | "tier">, range: UsageRange, now: Date = new Date()): Promise<UsageReport> {
  const { userId } = actor;
  const db = await services.db();
  const bucket = range.granularity === "day" ? Prisma.sql`date_trunc('day', hour)` : Prisma.sql`hour`;
  const [rows, keys] = await Promise.all([
    db.$queryRaw<{ keyId: string; bucket: number; route: string; s: number; c: number; r: number; e: number; p: number }[]>`
      SELECT "keyId", extract(epoch FROM ${bucket})::float8 * 1000 AS bucket, route,
        sum(successes)::float8 AS s, sum("clientErrors")::float8 AS c, sum("rateLimited")::float8 AS r,
        sum("serverErrors")::float8 AS e, max("peakPerMinute") AS p
      FROM "ApiUsageHourly"
      WHERE "userId" = ${userId} AND hour >= ${range.from} AND hour < ${range.to}
      GROUP BY "keyId", 2, route`,
    db.apiKey.findMany({ where: { userId }, select: { id: true, name: true, prefix: true, mode: true, createdAt: true, revokedAt: true, expiresAt: true } }),
  ]);
  const summed: UsageBucketRow[] = rows.map((row) => ({
    keyId: row.keyId,
    bucket: Number(row.bucket),
    route: row.route,
    successes: Number(row.s),
    clientErrors: Number(row.c),
    rateLimited: Number(row.r),
    serverErrors: Number(row.e),
    peakPerMinute: Number(row.p),
  }));
  const infos = keys.map((key) => ({
    id: key.id,
    name: key.name,
    prefix: key.prefix,
    mode: keyModeFromDb(key.mode),
    active: keyStatus(key, now) === "active",
    createdAt: key.createdAt,
  }));
  return buildUsageReport(range, summed, infos, services.requestsPerMinute(actor.tier));
}
