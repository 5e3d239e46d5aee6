// One /v1 server process for the multi-process tests, started as
//   DATABASE_URL=… REDIS_URL=… node --import tsx tests/integration/helpers/api-process.ts <port>
// It serves the API app with the process's default services, as server.ts does for /v1: the
// database from DATABASE_URL, the limiter on REDIS_URL, key changes heard through Redis. Prints
// "ready <port>" once it listens; SIGTERM stops it cleanly.
import { serve } from "@hono/node-server";
import { createApiApp } from "@/lib/api/app";
import { appServices } from "@/lib/app-services";
import { openServiceDatabase } from "@/lib/db";
import { keyEvents } from "@/lib/keys/key-events";

const port = Number(process.argv[2] ?? process.env.PORT);
const redisUrl = process.env.REDIS_URL;
if (!Number.isInteger(port) || port <= 0 || !process.env.DATABASE_URL || !redisUrl) {
  console.error("usage: DATABASE_URL=postgres://… REDIS_URL=redis://… node --import tsx tests/integration/helpers/api-process.ts <port>");
  process.exit(2);
}

const opened = await openServiceDatabase();
// As in server.ts: other processes' revocations must reach this one before it serves anything.
await keyEvents().connect(redisUrl);
const services = appServices();
const server = serve({ fetch: createApiApp().fetch, port, hostname: "127.0.0.1" }, () => console.log(`ready ${port}`));

let stopping = false;
async function stop() {
  if (stopping) return;
  stopping = true;
  server.close();
  await services.stopRecorders().catch(() => {});
  await Promise.all([services.limiter.close(), keyEvents().close()]).catch(() => {});
  await opened.close().catch(() => {});
  process.exit(0);
}
process.on("SIGTERM", () => void stop());
process.on("SIGINT", () => void stop());
// Started by a test with an IPC channel: a test runner that dies must not leave this running.
process.on("disconnect", () => void stop());
