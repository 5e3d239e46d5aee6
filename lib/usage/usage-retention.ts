import type { Db } from "@/lib/db";
import { startPeriodicTask, type PeriodicTask } from "@/lib/process/periodic-task";
import { HOUR_MS } from "./usage-recorder";
import { USAGE_RETENTION_DAYS } from "./usage-range";

const SWEEP_INTERVAL_MS = HOUR_MS;

/**
 * Deletes usage older than the USAGE_RETENTION_DAYS whole UTC days before today. Whole days, so
 * every day a range of that many days can ask for is complete.
 */
export async function deleteExpiredUsage(db: Db, now: Date = new Date()): Promise<number> {
  const today = Math.floor(now.getTime() / (24 * HOUR_MS)) * 24 * HOUR_MS;
  const cutoff = new Date(today - USAGE_RETENTION_DAYS * 24 * HOUR_MS);
  const { count } = await db.apiUsageHourly.deleteMany({ where: { hour: { lt: cutoff } } });
  return count;
}

/**
 * Runs the sweep now and then every hour. Every server may run it: a delete of what is already
 * gone deletes nothing.
 */
export function startUsageRetentionSweep(db: Db, intervalMs = SWEEP_INTERVAL_MS): PeriodicTask {
  return startPeriodicTask("deleting expired API usage", intervalMs, () => deleteExpiredUsage(db));
}
