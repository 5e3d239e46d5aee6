// The server (`npm start`; `npm run dev` runs it with `--dev`, Next in development mode): /v1/*,
// /healthz and /metrics, however spelled, go straight to the API app, everything else to Next.js. Next has no /v1
// route: this is the API's one door, and serving it outside Next's router keeps /v1 fast
// (docs/decisions/one-door-for-v1.md).
import http from "node:http";
import { getRequestListener } from "@hono/node-server";
import next from "next";
import { createApiApp } from "@/lib/api/app";
import { startIdempotencySweep } from "@/lib/api/idempotency";
import { baselineSecurityHeaders } from "@/lib/api/security-headers";
import { isPublicHttps, publicOrigin } from "@/lib/config/public-url";
import { ensureAuthSecret } from "@/lib/config/auth-secret";
import { parseTrustedProxies } from "@/lib/config/client-address";
import { dataDir, readEnv } from "@/lib/config/env";
import { configuredDatabase, openServiceDatabase } from "@/lib/db";
import { acquireDataDirLock } from "@/lib/db/data-dir-lock";
import { createRequestListener } from "@/lib/api/request-listener";
import { appServices } from "@/lib/app-services";
import { startBilling } from "@/lib/billing/start-billing";
import { keyEvents } from "@/lib/keys/key-events";
import { readIngestConfig, spotCredentials } from "@/lib/market/ingest/ingest-config";
import type { IngestionScheduler } from "@/lib/market/ingest/ingestion-scheduler";
import { startIngestion } from "@/lib/market/ingest/start-ingestion";
import { BACKGROUND_NICE, VenueThread } from "@/lib/market/ingest/venue-thread";
import { VENUE_IDS } from "@/lib/market/model/types";
import { startServiceBackfill } from "@/lib/history/backfill/start-backfill";
import { liveRoundEvents } from "@/lib/events/live-round-events";
import { logger } from "@/lib/observability/logger";
import { collectGarbage } from "@/lib/process/collect-garbage";
import { reportMemoryOnSignal } from "@/lib/process/memory-report";
import { startServerHeartbeat } from "@/lib/process/server-instances";
import { onShutdown, runService } from "@/lib/process/run-service";
import { startUsageRetentionSweep } from "@/lib/usage/usage-retention";
import { readEventsConfig } from "@/lib/config/events-config";
import { listenForAppendedEvents } from "@/lib/events/log-notifications";
import { startSandboxTicks } from "@/lib/events/sandbox-ticks";
import { readWebhookConfig } from "@/lib/webhooks/webhook-config";
import { startWebhooks } from "@/lib/alerts/start-webhooks";

const log = logger("server");

async function main() {
  const startedAt = performance.now();
  const dev = process.argv.includes("--dev");
  (process.env as Record<string, string>).NODE_ENV ??= dev ? "development" : "production";
  // Everything this process writes (the embedded database's new files above all) is owner-only.
  process.umask(0o077);
  const env = readEnv();
  const ingestConfig = readIngestConfig();
  const webhookConfig = readWebhookConfig();
  const trustedProxies = parseTrustedProxies(process.env.TRUSTED_PROXIES);
  const database = configuredDatabase();
  // Before anything slow: a second server on the same embedded data must fail at once.
  if (database.driver === "pglite" && database.dataDir) acquireDataDirLock(database.dataDir);
  ensureAuthSecret(dataDir(env));
  // One public address (PUBLIC_URL): next-auth builds its callback URLs from NEXTAUTH_URL and makes
  // its cookies Secure when that is https, so it is derived from the same setting.
  const origin = publicOrigin();
  process.env.NEXTAUTH_URL = origin;
  const baselineHeaders = Object.entries(baselineSecurityHeaders(isPublicHttps()));

  const opened = await openServiceDatabase();
  // `kill -USR2 <pid>` logs where memory goes (docs/operations.md); npm run bench:footprint reads it.
  reportMemoryOnSignal(() => opened.wasmMemoryBytes());
  if (opened.appliedMigrations.length) log.info({ migrations: opened.appliedMigrations }, `Applied migrations: ${opened.appliedMigrations.join(", ")}`);
  // Other processes must hear of revocations before this one serves a request.
  if (process.env.REDIS_URL) await keyEvents().connect(process.env.REDIS_URL);
  // On PostgreSQL they also hear of them over LISTEN/NOTIFY, which needs no Redis.
  if (database.driver === "postgres") await keyEvents().listenPostgres(database.url);
  // The servers count each other through the database: while Redis is away each admits its share of a key's limit.
  const heartbeat = database.driver === "postgres" ? startServerHeartbeat(opened.db) : undefined;
  const services = appServices();
  // Chooses the billing provider (a misconfiguration stops the start); with Stripe, reconciles the accounts.
  const billing = startBilling(opened.db);

  const nextApp = next({ dev, dir: process.cwd(), hostname: "localhost", port: env.PORT });
  await nextApp.prepare();
  const nextHandler = nextApp.getRequestHandler();
  const apiListener = getRequestListener(createApiApp().fetch);

  const server = http.createServer(createRequestListener({ api: apiListener, next: nextHandler, trustedProxies, baselineHeaders }));
  // Node closes an idle keep-alive connection after 5 s; a pooled client that sends on it at that
  // moment gets ECONNRESET for a request the server never read. 65 s outlasts the idle timeouts of
  // common load balancers (60 s) and clients' pools, so the server is never the side that races.
  server.keepAliveTimeout = 65_000;
  server.headersTimeout = 66_000;
  collectGarbage(); // start-up's garbage, before the ready line (lib/process/collect-garbage.ts)
  server.listen(env.PORT, env.HOST, () => {
    const ms = Math.round(performance.now() - startedAt);
    log.info({ port: env.PORT, origin, driver: database.driver, startMs: ms }, `Funding Opportunity Data Service ready on http://localhost:${env.PORT} as ${origin} (${database.driver}, ${ms} ms)`);
  });
  const idempotencySweep = startIdempotencySweep(opened.db);
  const usageSweep = startUsageRetentionSweep(opened.db);
  // Test keys' events: each sandbox tick written once, whichever server or worker claims it.
  const sandboxTicks = startSandboxTicks(opened.db, readEventsConfig());
  // The first tick builds the sandbox's 30 days of hourly history, once per process
  // (lib/market/sandbox/sandbox-hourly-funding.ts): a second of work just after the ready line that
  // leaves ~100 MB of garbage in V8's heap, which an idle server would keep resident until requests
  // made V8 collect it. Start-up's work ends with that tick, so its garbage is collected there too.
  void sandboxTicks.firstRun.then(() => collectGarbage({ passes: 2 }));
  // With PostgreSQL, events a worker or another server appends wake this one's streams at once.
  const appendedElsewhere = database.driver === "postgres" ? listenForAppendedEvents(database.url) : undefined;
  // And the opportunity sets (rounds and micro-batches) they publish reach this one's /v1/opportunities at once.
  const setsElsewhere = database.driver === "postgres" ? services.followOpportunitySet(database.url) : undefined;

  // Embedded PGlite belongs to this process, so the rounds run here; with PostgreSQL they belong
  // to `npm run worker` unless INGEST_IN_SERVER=1. Started after listening: never delays readiness.
  let ingestion: Promise<IngestionScheduler | undefined> = Promise.resolve(undefined);
  const ingesting = !ingestConfig.INGEST_DISABLED && (database.driver === "pglite" || ingestConfig.INGEST_IN_SERVER);
  // With the live feeds on, every change waits for whatever holds this thread, and parsing the
  // venues' answers (17 MB of JSON a round at 600 assets) held it up to 0.9 s at a time: those
  // are fetched and parsed on a thread of their own, where the rounds are ranked too. Without them
  // the rounds parse and rank here, which keeps the embedded server's memory small.
  const venueThread = ingesting && ingestConfig.INGEST_STREAMS === "on" ? new VenueThread({ nice: BACKGROUND_NICE }) : undefined;
  if (ingesting) {
    ingestion = startIngestion({
      db: opened.db,
      target: database,
      config: ingestConfig,
      ...(venueThread && {
        fetcher: venueThread.fetcher(undefined, VENUE_IDS),
        fetcherReachesVenues: true,
        spotFetcher: venueThread.spotFetcher(spotCredentials(ingestConfig)),
        ranker: venueThread.ranker(),
        reloadMarketLists: () => venueThread.reloadMarketLists(),
      }),
      onPublished: (round) => services.opportunitiesPublished(round),
      onBatch: (batch) => services.applyOpportunityBatch(batch),
      onCarryPublished: (carry) => services.carryPublished(carry),
      events: liveRoundEvents(ingestConfig.INGEST_INTERVAL_MS),
    }).catch((error: unknown) => {
      log.error({ err: error }, "starting market ingestion failed");
      return undefined;
    });
  }
  // The funding-history backfill runs where the rounds run, beside them.
  const backfill = ingestion.then((scheduler) =>
    scheduler
      ? startServiceBackfill(opened.db, scheduler).catch((error: unknown) => {
          log.error({ err: error }, "starting the funding-history backfill failed");
          return null;
        })
      : null,
  );

  // Webhook deliveries follow the same rule: here on the embedded database, with PostgreSQL in
  // `npm run worker` unless WEBHOOKS_IN_SERVER=1.
  const webhooks =
    !webhookConfig.WEBHOOKS_DISABLED && (database.driver === "pglite" || webhookConfig.WEBHOOKS_IN_SERVER)
      ? startWebhooks({ db: opened.db, config: webhookConfig })
      : undefined;

  onShutdown(async (signal) => {
    log.info({ signal }, `${signal}: shutting down`);
    server.close();
    server.closeAllConnections();
    idempotencySweep.stop();
    billing.stop();
    usageSweep.stop();
    sandboxTicks.stop();
    await appendedElsewhere?.stop();
    await setsElsewhere?.stop();
    await heartbeat?.stop();
    await (await backfill)?.stop().catch((error: unknown) => log.error({ err: error }, "stopping the backfill failed"));
    await (await ingestion)?.stop().catch((error: unknown) => log.error({ err: error }, "stopping ingestion failed"));
    await venueThread?.close();
    await webhooks?.stop().catch((error: unknown) => log.error({ err: error }, "stopping webhook deliveries failed"));
    await services.stopRecorders().catch((error: unknown) => log.error({ err: error }, "recording last use or API usage failed"));
    await Promise.all([services.limiter.close(), keyEvents().close()]).catch((error: unknown) => log.warn({ err: error }, "closing the rate limiter's or key changes' connections failed"));
    await opened.close().catch((error: unknown) => log.error({ err: error }, "closing the database failed"));
  });
}

void runService(main);
