import type { Db } from "@/lib/db";
import { EVENT_RETENTION_MS } from "./event-types";

/**
 * Deletes events older than EVENT_RETENTION_MS and records the highest sequence deleted, which
 * `assertWithinRetention` refuses cursors below. What goes is a prefix of the log by sequence (every
 * event up to the newest expired one), so a cursor is either complete or refused, never holed.
 * Answers how many events were deleted. Any process may run it; repeats are harmless.
 */
export async function deleteExpiredEvents(db: Db, now = new Date()): Promise<number> {
  const cutoff = new Date(now.getTime() - EVENT_RETENTION_MS);
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
