// `npm run worker`: the ingestion rounds and the funding-history backfill beside them, the sandbox's event ticks and the webhook deliveries
// without a web server, for PostgreSQL deployments (any number of workers may run; an advisory
// lock gives each round to one of them, each tick is claimed once, and the job queue gives each
// delivery to one). With no DATABASE_URL it runs against the embedded database, which only works
// while no server owns it. SIGTERM/SIGINT let a round and the deliveries in progress finish, then exit.
import { readEventsConfig } from "@/lib/config/events-config";
import { configuredDatabase, openServiceDatabase } from "@/lib/db";
import { listenForAppendedEvents } from "@/lib/events/log-notifications";
import { startSandboxTicks } from "@/lib/events/sandbox-ticks";
import { venueFetcher } from "@/lib/market/venues/fetch-all-venues";
import { readIngestConfig, spotCredentials } from "@/lib/market/ingest/ingest-config";
import { startIngestion } from "@/lib/market/ingest/start-ingestion";
import { startServiceBackfill } from "@/lib/history/backfill/start-backfill";
import { liveRoundEvents } from "@/lib/events/live-round-events";
import { BACKGROUND_NICE, VenueThread } from "@/lib/market/ingest/venue-thread";
import { VENUE_IDS } from "@/lib/market/model/types";
import { logger } from "@/lib/observability/logger";
import { onShutdown, runService } from "@/lib/process/run-service";
import { readWebhookConfig } from "@/lib/webhooks/webhook-config";
import { startWebhooks } from "@/lib/alerts/start-webhooks";

const log = logger("worker");

async function main() {
  const config = readIngestConfig();
  const webhookConfig = readWebhookConfig();
  if (config.INGEST_DISABLED && webhookConfig.WEBHOOKS_DISABLED) {
    log.info("INGEST_DISABLED and WEBHOOKS_DISABLED are set: the worker has nothing to do.");
    return;
  }
  const target = configuredDatabase();
  const opened = await openServiceDatabase();
  if (opened.appliedMigrations.length) log.info({ migrations: opened.appliedMigrations }, `Applied migrations: ${opened.appliedMigrations.join(", ")}`);
  // About half the venues are fetched and parsed on a second thread (VenueThread): at 20 venues of
  // 600 assets, parsing their answers was the largest part of a round's work on one thread. (A
  // server that ingests sends them all to its thread, and only with the live feeds on.)
  // With the live feeds on it ranks the rounds too, below the batches' priority (BACKGROUND_NICE).
  const venueThread = config.INGEST_DISABLED ? undefined : new VenueThread(config.INGEST_STREAMS === "on" ? { nice: BACKGROUND_NICE } : {});
  const scheduler =
    venueThread &&
    (await startIngestion({
      db: opened.db,
      target,
      config,
      fetcher: venueThread.fetcher(venueFetcher(), VENUE_IDS),
      fetcherReachesVenues: true,
      // The spot venues (INGEST_SPOT) wholly on that thread: their answers arrive through the round.
      spotFetcher: venueThread.spotFetcher(spotCredentials(config)),
      // With the live feeds on, the rounds ranked there: this thread publishes the micro-batches meanwhile.
      ranker: venueThread.ranker(),
      // Without them, half of each round's rows written there while this thread writes the rest.
      rowWriter: venueThread.rowWriter(),
      // The market lists due after a round: this thread's venues' and that thread's.
      reloadMarketLists: () => venueThread.reloadMarketLists(),
      events: liveRoundEvents(config.INGEST_INTERVAL_MS),
    }));
  if (scheduler) log.info(`Ingestion worker running (${target.driver}, a round every ${config.INGEST_INTERVAL_MS} ms)`);
  // Backfill jobs, one per venue: any number of workers share them through the job queue.
  const backfill = scheduler
    ? await startServiceBackfill(opened.db, scheduler).catch((error: unknown) => {
        log.error({ err: error }, "starting the funding-history backfill failed");
        return null;
      })
    : null;
  const webhooks = webhookConfig.WEBHOOKS_DISABLED ? undefined : startWebhooks({ db: opened.db, config: webhookConfig });
  if (webhooks) log.info(`Webhook deliveries running (${target.driver}, polling every ${webhookConfig.WEBHOOK_POLL_MS} ms)`);
  // The sandbox's events too: servers write them as well, and each tick is claimed once.
  const sandboxTicks = startSandboxTicks(opened.db, readEventsConfig());
  // Events other processes append (a server's sandbox tick) reach this worker's dispatcher at once.
  const appendedElsewhere = target.driver === "postgres" && webhooks ? listenForAppendedEvents(target.url) : undefined;

  onShutdown(async (signal) => {
    log.info({ signal }, `${signal}: finishing the current round and deliveries, then stopping`);
    sandboxTicks.stop();
    await appendedElsewhere?.stop();
    await backfill?.stop().catch((error: unknown) => log.error({ err: error }, "stopping the backfill failed"));
    await scheduler?.stop().catch((error: unknown) => log.error({ err: error }, "stopping ingestion failed"));
    await venueThread?.close();
    await webhooks?.stop().catch((error: unknown) => log.error({ err: error }, "stopping webhook deliveries failed"));
    await opened.close().catch((error: unknown) => log.error({ err: error }, "closing the database failed"));
  });
}

void runService(main);
