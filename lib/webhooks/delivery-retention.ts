import type { Db } from "@/lib/db";

/** How long finished deliveries and their attempts stay in the log an endpoint's owner sees. */
export const DELIVERY_RETENTION_MS = 30 * 86_400_000;

/**
 * Deletes finished deliveries (and their attempts, by cascade) created more than 30 days before
 * `now`; pending ones stay until their retries end. Repeats harmlessly, so every process running
 * deliveries may run it.
 */
export async function deleteOldDeliveries(db: Db, now = new Date()): Promise<number> {
  const { count } = await db.webhookDelivery.deleteMany({
    where: { createdAt: { lt: new Date(now.getTime() - DELIVERY_RETENTION_MS) }, status: { not: "pending" } },
  });
  return count;
}
