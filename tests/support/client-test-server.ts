import http from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { serve } from "@hono/node-server";
import { createApiApp } from "@/lib/api/app";
import { createAppServices, type AppServices } from "@/lib/app-services";
import type { OpenDatabase } from "@/lib/db/open-database";
import { appendEventStatements, eventsAppended } from "@/lib/events/append-events";
import { eventId } from "@/lib/events/event-types";
import { revokeKey } from "@/lib/keys/account-keys";
import type { KeyMode } from "@/lib/keys/mode";
import { startWebhooks } from "@/lib/alerts/start-webhooks";
import { readWebhookConfig } from "@/lib/webhooks/webhook-config";
import { createKeyFor, createUser, dbServices, liveOpportunity, seedLiveCarry, seedLiveOpportunities, signedIn } from "@/tests/support/api-fixtures";
import { fixedDepthSources } from "@/tests/support/market/fixed-depth";
import { createTestDatabase } from "@/tests/support/test-database";

export interface ClientTestServer {
  baseUrl: string;
  keys: {
    /** Desk, live, every permission. */
    desk: string;
    /** Desk, svc_sk_test_: the sandbox. */
    test: string;
    /** Free account: verify works, everything else is 403. */
    free: string;
    /** Every other request with it is refused with 429 and retry_after 1. */
    rateLimitedEveryOther: string;
    /** Every other request with it fails with 500 INTERNAL_ERROR. */
    failingEveryOther: string;
    /** Pro, live: at most 2 streams open at once. */
    pro: string;
  };
  /** Appends `count` venue.stale events of `exchange` (okx) to the `mode` log, as a round does, and returns their ids. */
  appendEvents(mode: KeyMode, count: number, exchange?: string): Promise<string[]>;
  /** A new live Desk key, and its revocation as the account area does it. */
  newRevocableKey(): Promise<{ secret: string; revoke: () => Promise<void> }>;
  /** Cuts every open /v1/stream connection, as a network failure would; returns how many. */
  dropStreams(): number;
  /** The Last-Event-ID header of every /v1/stream request, in order (null when none was sent). */
  streamRequests: (string | null)[];
  /**
   * The same for a client in another process (the Python tests): POST /events?mode=&count=&exchange=,
   * POST /keys (a revocable key), POST /revoke?secret=, POST /drop-streams and GET /stream-requests, answering JSON.
   */
  controlUrl: string;
  /** The seeded live opportunities' count, so pagination can be checked against it. */
  liveOpportunities: number;
  close(): Promise<void>;
}

/**
 * The real /v1 app over HTTP on a free loopback port, on a fresh database with seeded keys and
 * opportunities, for the client libraries' tests. Two keys misbehave on purpose, through the
 * limiter and the key verifier the app really calls, so retries are tested against real 429 and
 * 500 answers and their headers. Streams heartbeat every 200 ms here, and webhooks are delivered
 * (to loopback receivers, which WEBHOOK_ALLOW_PRIVATE_URLS allows) by the runner this server starts.
 */
export async function startClientTestServer(): Promise<ClientTestServer> {
  const database: OpenDatabase = await createTestDatabase();
  // Quotes of the made-up live opportunities read a fixed book: no venue is reached.
  const env = {
    ...process.env,
    STREAM_HEARTBEAT_MS: "200",
    STREAM_POLL_MS: "20",
    STREAM_KEY_CHECK_MS: "200",
    WEBHOOK_ALLOW_PRIVATE_URLS: "1",
    WEBHOOK_POLL_MS: "100",
  };
  const base = createAppServices(async () => database.db, env, { depthSources: fixedDepthSources() });
  const db = database.db;
  const webhooks = startWebhooks({ db, config: readWebhookConfig(env) });
  // BTC-binance-bybit is the id the routes' documented examples ask for.
  const opportunities = [liveOpportunity("BTC", 12), ...Array.from({ length: 7 }, (_, i) => liveOpportunity(`COIN${i}`, 10 + i * 5))];
  await seedLiveOpportunities(db, opportunities);
  // BTC-spot_perp-binance-bybit is the id GET /v1/carry-opportunities/{id}'s documented example asks for.
  await seedLiveCarry(db);
  // The first event of the log, evt_0000000000000001: the one GET /v1/events/{id}'s documented example reads.
  await db.$transaction(appendEventStatements(db, "live", [{ type: "venue.recovered", data: { exchange: "okx", status: "ok", last_success_at: null, error: null } }]));
  const desk = await createUser(db, "desk");
  const free = await createUser(db, "free");
  const pro = await createUser(db, "pro");
  const rateLimited = await createKeyFor(db, desk.id);
  const failing = await createKeyFor(db, desk.id);
  const keys = {
    desk: (await createKeyFor(db, desk.id)).secret,
    test: (await createKeyFor(db, desk.id, { mode: "test" })).secret,
    free: (await createKeyFor(db, free.id)).secret,
    rateLimitedEveryOther: rateLimited.secret,
    failingEveryOther: failing.secret,
    pro: (await createKeyFor(db, pro.id)).secret,
  };

  let limitCalls = 0;
  let verifyCalls = 0;
  const services: AppServices = {
    ...base,
    limiter: Object.assign(Object.create(base.limiter) as AppServices["limiter"], {
      async limit(key: string, max: number, windowMs: number) {
        if (key === `key:${rateLimited.id}` && limitCalls++ % 2 === 0) {
          return { success: false, limit: max, remaining: 0, reset: Date.now() + 1000 };
        }
        return base.limiter.limit(key, max, windowMs);
      },
    }),
    verifier: Object.assign(Object.create(base.verifier) as AppServices["verifier"], {
      async verify(raw: string) {
        if (raw === failing.secret && verifyCalls++ % 2 === 0) throw new Error("injected failure");
        return base.verifier.verify(raw);
      },
    }),
  };
  const app = createApiApp(() => services);
  const server = serve({ fetch: app.fetch, port: 0, hostname: "127.0.0.1" }) as http.Server;
  const streamSockets = new Set<Socket>();
  const streamRequests: (string | null)[] = [];
  server.on("request", (request: http.IncomingMessage) => {
    if (!request.url?.startsWith("/v1/stream")) return;
    const lastEventId = request.headers["last-event-id"];
    streamRequests.push(typeof lastEventId === "string" ? lastEventId : null);
    streamSockets.add(request.socket);
    request.socket.once("close", () => streamSockets.delete(request.socket));
  });
  await new Promise<void>((resolve) => server.once("listening", () => resolve()));
  const { port } = server.address() as AddressInfo;

  let counter = 0;
  const appendEvents = async (mode: KeyMode, count: number, exchange = "okx"): Promise<string[]> => {
    const events = Array.from({ length: count }, () => ({
      type: "venue.stale" as const,
      data: { exchange, status: "stale" as const, last_success_at: null, error: `failure ${++counter}` },
    }));
    const before = await db.marketEvent.findFirst({ orderBy: { sequence: "desc" }, select: { sequence: true } });
    await db.$transaction(appendEventStatements(db, mode, events));
    eventsAppended().notify();
    const rows = await db.marketEvent.findMany({ where: { sequence: { gt: before?.sequence ?? 0n } }, orderBy: { sequence: "asc" } });
    return rows.map((r) => eventId(r.sequence));
  };
  const newRevocableKey = async () => {
    const key = await createKeyFor(db, desk.id);
    return { secret: key.secret, revoke: async () => void (await revokeKey(dbServices(db), signedIn(desk), key.id, { ip: null, userAgent: null })) };
  };
  const dropStreams = () => {
    const count = streamSockets.size;
    for (const socket of streamSockets) socket.destroy();
    return count;
  };

  const revokers = new Map<string, () => Promise<void>>();
  const control = http.createServer((request, response) => {
    const url = new URL(request.url ?? "/", "http://control");
    const answer = (body: unknown) => response.writeHead(200, { "Content-Type": "application/json" }).end(JSON.stringify(body));
    const fail = (error: unknown) => response.writeHead(500).end(String(error));
    request.resume();
    if (request.method === "POST" && url.pathname === "/events") {
      const mode = url.searchParams.get("mode") === "test" ? "test" : "live";
      appendEvents(mode, Number(url.searchParams.get("count") ?? "1"), url.searchParams.get("exchange") ?? undefined).then(answer, fail);
    } else if (request.method === "POST" && url.pathname === "/keys") {
      newRevocableKey().then((key) => {
        revokers.set(key.secret, key.revoke);
        answer({ secret: key.secret });
      }, fail);
    } else if (request.method === "POST" && url.pathname === "/revoke") {
      const revoke = revokers.get(url.searchParams.get("secret") ?? "");
      if (revoke) revoke().then(() => answer({ revoked: true }), fail);
      else response.writeHead(404).end();
    } else if (request.method === "POST" && url.pathname === "/drop-streams") answer({ dropped: dropStreams() });
    else if (request.method === "GET" && url.pathname === "/stream-requests") answer(streamRequests);
    else response.writeHead(404).end();
  });
  await new Promise<void>((resolve) => control.listen(0, "127.0.0.1", resolve));

  return {
    baseUrl: `http://127.0.0.1:${port}`,
    controlUrl: `http://127.0.0.1:${(control.address() as AddressInfo).port}`,
    keys,
    liveOpportunities: opportunities.length,
    appendEvents,
    newRevocableKey,
    dropStreams,
    streamRequests,
    async close() {
      dropStreams();
      await new Promise<void>((resolve) => control.close(() => resolve()));
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await webhooks.stop();
      await base.stopRecorders();
      await database.close();
    },
  };
}
