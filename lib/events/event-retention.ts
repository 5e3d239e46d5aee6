import { readEventsConfig } from "@/lib/config/events-config";
import type { Db } from "@/lib/db";

let configured: number | undefined;
/** EVENTS_RETENTION_DAYS (30 by default) in milliseconds, read once per process. */
export function eventRetentionMs(): number {
  configured ??= readEventsConfig().EVENTS_RETENTION_DAYS * 86_400_000;
  return configured;
}

/**
 * Deletes events older than the retention (EVENTS_RETENTION_DAYS) and records the highest sequence
 * deleted, which `assertWithinRetention` refuses cursors below. What goes is a prefix of the log by
 * sequence (every event up to the newest expired one), so a cursor is either complete or refused,
 * never holed. Answers how many events were deleted. Any process may run it; repeats are harmless.
 */
export async function deleteExpiredEvents(db: Db, now = new Date(), retentionMs = eventRetentionMs()): Promise<number> {
  const cutoff = new Date(now.getTime() - retentionMs);
  const newest = await db.marketEvent.findFirst({ where: { createdAt: { lt: cutoff } }, orderBy: { sequence: "desc" }, select: { sequence: true } });
  if (!newest) return 0;
  const through = newest.sequence;
  const [, deleted] = await db.$transaction([
    db.$executeRaw`
      INSERT INTO "MarketEventRetention" (id, "deletedThrough") VALUES ('market', ${through})
      ON CONFLICT (id) DO UPDATE SET "deletedThrough" = GREATEST("MarketEventRetention"."deletedThrough", EXCLUDED."deletedThrough")`,
    db.marketEvent.deleteMany({ where: { sequence: { lte: through } } }),
  ]);
  return deleted.count;
}
