import type { AppServices } from "@/lib/app-services";
import { databaseStats } from "@/lib/db/database-stats";
import { logger } from "@/lib/observability/logger";
import { metrics, scrapedRegistry } from "@/lib/observability/metrics";
import { deliveryQueueDepth } from "@/lib/webhooks/delivery-queue";

/** GET /metrics: Prometheus's text format, for the holder of HEALTH_DETAILS_TOKEN only (lib/health.ts). */
export const METRICS_PATH = "/metrics";

const log = logger("metrics");

/** How long a scrape waits for each database read before answering without it. */
const READ_TIMEOUT_MS = 2_000;

function withTimeout<T>(promise: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${READ_TIMEOUT_MS} ms`)), READ_TIMEOUT_MS);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/**
 * The gauges that describe state rather than count this process's work, set as the scrape reads
 * them: each venue's data age and the delivery queue (from the database, the same from every
 * process), the database's pools, the open streams. A read that fails leaves its gauges as they
 * were and is logged; the rest of the answer is still given.
 */
async function readGauges(services: AppServices): Promise<void> {
  const m = metrics();
  m.streamConnections.set(services.streamSlots.total());
  const db = await withTimeout(services.db()).catch((error: unknown) => {
    log.error({ err: error }, "metrics: opening the database failed");
    return undefined;
  });
  if (!db) return;
  const stats = databaseStats(db);
  if (stats) {
    for (const pool of stats.pools) {
      m.dbPool.set({ pool: pool.name, state: "total" }, pool.total);
      m.dbPool.set({ pool: pool.name, state: "idle" }, pool.idle);
      m.dbPool.set({ pool: pool.name, state: "waiting" }, pool.waiting);
    }
    if (stats.wasmMemoryBytes !== undefined) m.pgliteMemory.set(stats.wasmMemoryBytes);
  }
  await Promise.all([
    withTimeout(services.market("live").status()).then(
      (status) => {
        for (const venue of status.venues) {
          if (venue.data_age_seconds === null) m.venueDataAge.remove({ venue: venue.id });
          else m.venueDataAge.set({ venue: venue.id }, venue.data_age_seconds);
        }
      },
      (error: unknown) => log.error({ err: error }, "metrics: reading the venues' status failed"),
    ),
    withTimeout(deliveryQueueDepth(db)).then(
      (depth) => {
        for (const state of ["running", "due", "scheduled"] as const) m.webhookQueue.set({ state }, depth[state]);
      },
      (error: unknown) => log.error({ err: error }, "metrics: reading the webhook delivery queue failed"),
    ),
  ]);
}

/** The metrics as Prometheus reads them, with their content type. */
export async function readMetrics(services: AppServices): Promise<{ text: string; contentType: string }> {
  await readGauges(services);
  const registry = scrapedRegistry();
  return { text: await registry.metrics(), contentType: registry.contentType };
}
