import type { Db } from "@/lib/db";
import { aggregatePendingRounds } from "./aggregate-rounds";
import type { RoundEvents } from "./round-events";

const DAY_MS = 86_400_000;

export interface RetentionPolicy {
  /** Rounds and their snapshots are deleted after this many days. */
  rawDays: number;
  /** Hourly aggregates, funding settlements and interval changes are deleted after this many days. */
  hourlyDays: number;
}

export interface RetentionResult {
  aggregatedRounds: number;
  deletedRounds: number;
  deletedHours: number;
  deletedSettlements: number;
  deletedIntervalChanges: number;
  /** Change events past their retention (EVENTS_RETENTION_DAYS), when the round writes events. */
  deletedEvents: number;
}

/**
 * Aggregates first, deletes second: a raw round is only deleted once its observations live on in
 * FundingRateHourly, so nothing disappears from history before the hourly retention says so.
 */
export async function applyRetention(
  db: Db,
  policy: RetentionPolicy,
  now = new Date(),
  events?: Pick<RoundEvents, "deleteExpired">,
): Promise<RetentionResult> {
  const aggregatedRounds = await aggregatePendingRounds(db, now);
  const rawCutoff = new Date(now.getTime() - policy.rawDays * DAY_MS);
  const hourlyCutoff = new Date(now.getTime() - policy.hourlyDays * DAY_MS);
  // A round's snapshots go with it, in the same statement (they have no foreign key to cascade).
  const [rounds] = await db.$queryRaw<{ count: number }[]>`
    WITH deleted AS (
      DELETE FROM "IngestionRound" WHERE "startedAt" < ${rawCutoff} AND "aggregatedAt" IS NOT NULL RETURNING id
    ), snapshots AS (
      DELETE FROM "RoundSnapshot" WHERE "roundId" IN (SELECT id FROM deleted)
    )
    SELECT count(*)::int AS count FROM deleted`;
  const hours = await db.fundingRateHourly.deleteMany({ where: { hour: { lt: hourlyCutoff } } });
  const settlements = await db.fundingRate.deleteMany({ where: { time: { lt: hourlyCutoff } } });
  const intervalChanges = await db.fundingIntervalChange.deleteMany({ where: { effectiveAt: { lt: hourlyCutoff } } });
  const deletedEvents = events ? await events.deleteExpired(db, now) : 0;
  return {
    aggregatedRounds,
    deletedRounds: rounds?.count ?? 0,
    deletedHours: hours.count,
    deletedSettlements: settlements.count,
    deletedIntervalChanges: intervalChanges.count,
    deletedEvents,
  };
}
