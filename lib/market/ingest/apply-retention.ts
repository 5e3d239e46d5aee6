import type { Db } from "@/lib/db";
import { directSql } from "@/lib/db/direct-sql";
import { dropSettlementMonthsBefore } from "@/lib/history/store/settlement-partitions";
import { logger } from "@/lib/observability/logger";
import { aggregatePendingRounds } from "./aggregate-rounds";
import type { RoundEvents } from "./round-events";

const DAY_MS = 86_400_000;

export interface RetentionPolicy {
  /** Rounds and their snapshots are deleted after this many days. */
  rawDays: number;
  /** Hourly aggregates are deleted after this many days. */
  hourlyDays: number;
  /**
   * Funding settlements (FundingRate) are the service's history and are kept when this is unset.
   * When set, each month partition whose whole month is older than this many days is dropped: never
   * a row-by-row DELETE over hundreds of millions of rows. Interval changes are history too (the
   * backfill finds them back to a venue's first settlement) and go with the settlements they explain.
   */
  settlementDays?: number;
}

export interface RetentionResult {
  aggregatedRounds: number;
  deletedRounds: number;
  deletedHours: number;
  /** The settlement month partitions dropped (FundingRate_pYYYYMM), oldest first. */
  droppedSettlementMonths: string[];
  deletedIntervalChanges: number;
  /** Change events past their retention (EVENTS_RETENTION_DAYS), when the round writes events. */
  deletedEvents: number;
}

/**
 * Aggregates first, deletes second: a raw round is only deleted once its observations live on in
 * FundingRateHourly, so nothing disappears from history before the hourly retention says so.
 * Settlements are kept unless a settlement retention is set, and then go a month at a time.
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
  // Borrow rates are hourly rows too (BorrowRate), kept as long as the hourly funding they are set against.
  await db.borrowRate.deleteMany({ where: { time: { lt: hourlyCutoff } } });
  const intervalChanges =
    policy.settlementDays === undefined
      ? { count: 0 }
      : await db.fundingIntervalChange.deleteMany({ where: { effectiveAt: { lt: new Date(now.getTime() - policy.settlementDays * DAY_MS) } } });
  const deletedEvents = events ? await events.deleteExpired(db, now) : 0;
  // Last: a drop that gave up waiting for the table's lock fails this pass after the rest is done.
  const droppedSettlementMonths =
    policy.settlementDays === undefined ? [] : await dropSettlementMonthsBefore(directSql(db), new Date(now.getTime() - policy.settlementDays * DAY_MS));
  if (droppedSettlementMonths.length > 0) {
    logger("ingest").info({ partitions: droppedSettlementMonths, settlementDays: policy.settlementDays }, `settlement retention dropped ${droppedSettlementMonths.join(", ")}`);
  }
  return {
    aggregatedRounds,
    deletedRounds: rounds?.count ?? 0,
    deletedHours: hours.count,
    droppedSettlementMonths,
    deletedIntervalChanges: intervalChanges.count,
    deletedEvents,
  };
}
