// The production server (`npm start`): /v1/* and /healthz go straight to the API app, everything
// else to Next.js. Serving the API outside Next's router is what keeps /v1 fast (docs/ARCHITECTURE.md).
import http from "node:http";
import { getRequestListener } from "@hono/node-server";
import next from "next";
import { createApiApp } from "@/lib/api/app";
import { ensureAuthSecret } from "@/lib/config/auth-secret";
import { dataDir, readEnv } from "@/lib/config/env";
import { configuredDatabase, openServiceDatabase } from "@/lib/db";
import { acquireDataDirLock } from "@/lib/db/data-dir-lock";
import { isApiPath } from "@/lib/api/paths";
import { appServices } from "@/lib/app-services";
import { keyEvents } from "@/lib/keys/key-events";
import { readIngestConfig } from "@/lib/market/ingest/ingest-config";
import type { IngestionScheduler } from "@/lib/market/ingest/ingestion-scheduler";
import { startIngestion } from "@/lib/market/ingest/start-ingestion";
import { onShutdown, runService } from "@/lib/process/run-service";

async function main() {
  const startedAt = performance.now();
  (process.env as Record<string, string>).NODE_ENV ??= "production";
  const env = readEnv();
  const ingestConfig = readIngestConfig();
  const database = configuredDatabase();
  // Before anything slow: a second server on the same embedded data must fail at once.
  if (database.driver === "pglite" && database.dataDir) acquireDataDirLock(database.dataDir);
  ensureAuthSecret(dataDir(env));
  process.env.NEXTAUTH_URL ??= `http://localhost:${env.PORT}`;

  const opened = await openServiceDatabase();
  if (opened.appliedMigrations.length) console.log(`Applied migrations: ${opened.appliedMigrations.join(", ")}`);
  // Other processes must hear of revocations before this one serves a request.
  if (process.env.REDIS_URL) await keyEvents().connect(process.env.REDIS_URL);
  const services = appServices();

  const nextApp = next({ dev: false, dir: process.cwd(), hostname: "localhost", port: env.PORT });
  await nextApp.prepare();
  const nextHandler = nextApp.getRequestHandler();
  const apiListener = getRequestListener(createApiApp().fetch);

  const server = http.createServer((req, res) => {
    // The audit trail and the sign-in limits key on this; a client cannot choose it.
    req.headers["x-real-ip"] = req.socket.remoteAddress ?? "";
    if (isApiPath(req.url ?? "/")) return apiListener(req, res);
    return nextHandler(req, res);
  });
  server.listen(env.PORT, env.HOST, () => {
    const ms = Math.round(performance.now() - startedAt);
    console.log(`Funding Opportunity Data Service ready on http://localhost:${env.PORT} (${database.driver}, ${ms} ms)`);
  });

  // Embedded PGlite belongs to this process, so the rounds run here; with PostgreSQL they belong
  // to `npm run worker` unless INGEST_IN_SERVER=1. Started after listening: never delays readiness.
  let ingestion: Promise<IngestionScheduler | undefined> = Promise.resolve(undefined);
  if (!ingestConfig.INGEST_DISABLED && (database.driver === "pglite" || ingestConfig.INGEST_IN_SERVER)) {
    ingestion = startIngestion({
      db: opened.db,
      target: database,
      config: ingestConfig,
      onPublished: () => services.invalidateOpportunities(),
    }).catch((error: unknown) => {
      console.error("starting market ingestion failed", error);
      return undefined;
    });
  }

  onShutdown(async (signal) => {
    console.log(`${signal}: shutting down`);
    server.close();
    server.closeAllConnections();
    await (await ingestion)?.stop().catch((error) => console.error("stopping ingestion failed", error));
    await services.lastUsed.stop().catch((error) => console.error("recording last use failed", error));
    await Promise.all([services.limiter.close(), keyEvents().close()]).catch(() => undefined);
    await opened.close().catch((error) => console.error("closing the database failed", error));
  });
}

void runService(main);
