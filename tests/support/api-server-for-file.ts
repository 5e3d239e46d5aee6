import http from "node:http";
import { getRequestListener } from "@hono/node-server";
import { afterAll, beforeAll } from "vitest";
import { createApiApp, type ApiApp } from "@/lib/api/app";
import { createAppServices, type AppServices } from "@/lib/app-services";
import type { Db } from "@/lib/db";
import { closeServer, listenOnLoopback } from "./loopback-server";
import { startedInBeforeAll } from "./started-in-before-all";
import { testDatabaseForFile } from "./test-database-for-file";

export interface ApiServer {
  readonly db: Db;
  readonly services: AppServices;
  /** The app itself, to call in-process. */
  readonly app: ApiApp;
  /** Where the same app listens behind node:http, the production server's path. */
  readonly baseUrl: string;
}

/**
 * The API app on a test file's own database, callable in-process and listening on loopback through
 * @hono/node-server as server.ts mounts it; its services read `env` over process.env. Started before
 * the file's own hooks (call it first), stopped after its tests.
 */
export function apiServerForFile(env: Record<string, string> = {}): ApiServer {
  const database = testDatabaseForFile();
  let running: { services: AppServices; app: ApiApp; server: http.Server; baseUrl: string } | undefined;
  beforeAll(async () => {
    const services = createAppServices(async () => database.db, { ...process.env, ...env });
    const app = createApiApp(() => services);
    const server = http.createServer(getRequestListener(app.fetch));
    running = { services, app, server, ...(await listenOnLoopback(server)) };
  });
  afterAll(async () => {
    await closeServer(running?.server);
    await running?.services.stopRecorders();
  });
  return startedInBeforeAll("apiServerForFile", () => running && { db: database.db, ...running });
}
