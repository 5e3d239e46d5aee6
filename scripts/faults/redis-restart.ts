// Scenario d: the server's Redis stopped and started again. While it is down the server keeps
// answering, /healthz shows the limiter degraded and the per-key limits are enforced from the
// process's memory, each live server admitting its share (a second server is stood in for by a
// heartbeat row this scenario keeps fresh); once Redis is back the server returns to it (healthz,
// and the limiter's keys reappear in Redis). This scenario starts its own redis-server, the one
// thing it may stop.
import { Redis } from "ioredis";
import { HEARTBEAT_INTERVAL_MS } from "@/lib/process/server-instances";
import { requestsPerMinute } from "@/lib/plans";
import { startTestRedisServer } from "@/tests/support/redis-server";
import { createServerDatabase, readHealth, request, seedKey, seedOpportunities, sleep, startServer, waitUntil, type FaultEnv } from "./harness";
import { Report } from "./report";

const WINDOW_MS = 60_000;

/** Sends `count` requests with a fresh key at once; how many were admitted and refused. */
async function burst(url: string, secret: string, count: number) {
  const answers = await Promise.all(Array.from({ length: count }, () => request(url, { headers: { authorization: `Bearer ${secret}` } })));
  return { ok: answers.filter((a) => a.status === 200).length, limited: answers.filter((a) => a.status === 429).length, other: answers.filter((a) => a.status !== 200 && a.status !== 429).map((a) => a.status) };
}

/** A burst straddling a fixed-window edge may legitimately admit a little more: start inside one. */
async function awayFromWindowEdge() {
  const into = Date.now() % WINDOW_MS;
  if (into > WINDOW_MS - 8_000) await sleep(WINDOW_MS - into + 250);
}

export async function redisRestart(env: FaultEnv): Promise<Report> {
  const report = new Report("d. Redis stopped and restarted");
  let redis = await startTestRedisServer();
  const port = redis.port;
  const database = await createServerDatabase(env.databaseUrl);
  let server: Awaited<ReturnType<typeof startServer>> | undefined;
  const inspector = new Redis(redis.url, { lazyConnect: true, maxRetriesPerRequest: 1, retryStrategy: () => 200 });
  inspector.on("error", () => undefined);
  try {
    await seedOpportunities(database.db, 10);
    const keys = await Promise.all(Array.from({ length: 4 }, () => seedKey(database.db, "pro")));
    // The default 50 ms budget can be blown by a burst of 120 requests on a busy machine, and each
    // such fallback lets memory admit a few more (the soak measures that); this scenario is about a
    // stopped Redis, which refuses connections at once, so a wider budget changes nothing it checks.
    server = await startServer({ databaseUrl: database.url, redisUrl: redis.url, extra: { RATE_LIMIT_STORE_TIMEOUT_MS: "500" } });
    const fallbacks = () => (server!.output().match(/\[ratelimit\] \w+ store unavailable/g) ?? []).length;
    const health = async () => (await readHealth(server!.url)).json;
    const url = `${server.url}/v1/opportunities?limit=1`;
    const limit = requestsPerMinute("pro");

    const first = await health();
    report.check("limits go through Redis at start", first?.rate_limiter?.store === "redis" && first.rate_limiter.degraded === false, JSON.stringify({ status: first?.status, rate_limiter: first?.rate_limiter }));
    await awayFromWindowEdge();
    const normal = await burst(url, keys[0]!.secret, limit + 20);
    await inspector.connect();
    const redisKeys = await inspector.dbsize();
    report.check(`through Redis, a fresh Pro key gets exactly ${limit} of ${limit + 20}`, normal.ok === limit && normal.limited === 20, `${normal.ok} admitted, ${normal.limited} refused, Redis holds ${redisKeys} keys, ${fallbacks()} fallbacks to memory so far`);

    await redis.stop();
    const stoppedAt = Date.now();
    const during = await request(url, { headers: { authorization: `Bearer ${keys[1]!.secret}` }, timeoutMs: 5_000 });
    report.check("with Redis stopped, a request is still answered (200)", during.status === 200, `HTTP ${during.status} in ${during.ms.toFixed(0)} ms`);
    // A few seconds of traffic on the dead store: none may wait on it.
    const trickle: number[] = [];
    const slow: string[] = [];
    while (Date.now() - stoppedAt < 3_000) {
      const answer = await request(url, { headers: { authorization: `Bearer ${keys[1]!.secret}` }, timeoutMs: 5_000 });
      trickle.push(answer.status);
      if (answer.ms > 1_000) slow.push(`${answer.status} in ${answer.ms.toFixed(0)} ms`);
      await sleep(50);
    }
    report.check("3 s of requests with Redis down: all 200, none slower than 1 s", trickle.every((s) => s === 200) && slow.length === 0, `${trickle.length} requests${slow.length ? `; slow: ${slow.slice(0, 3).join(", ")}` : ""}`);
    const degraded = await waitUntil(async () => (await health())?.rate_limiter?.degraded === true, 10_000);
    const shown = await health();
    report.check("/healthz shows the limiter degraded (status degraded, store redis)", degraded && shown?.status === "degraded" && shown.rate_limiter?.store === "redis", JSON.stringify({ status: shown?.status, rate_limiter: shown?.rate_limiter }));
    // A second live server, as its heartbeat shows it: from the server's next beat each admits half.
    const peerBeat = () => database.db.$executeRaw`
      INSERT INTO "ServerInstance" (id, "startedAt", "heartbeatAt") VALUES ('fault-peer', now() AT TIME ZONE 'UTC', now() AT TIME ZONE 'UTC')
      ON CONFLICT (id) DO UPDATE SET "heartbeatAt" = now() AT TIME ZONE 'UTC'`;
    await peerBeat();
    const peer = setInterval(() => void peerBeat().catch(() => undefined), 1_000);
    let fromMemory: Awaited<ReturnType<typeof burst>>;
    try {
      await sleep(HEARTBEAT_INTERVAL_MS + 1_000);
      await awayFromWindowEdge();
      fromMemory = await burst(url, keys[2]!.secret, limit + 20);
    } finally {
      clearInterval(peer);
      await database.db.$executeRaw`DELETE FROM "ServerInstance" WHERE id = 'fault-peer'`;
    }
    const share = Math.floor(limit / 2);
    report.check(`limits still enforced from memory, at this server's share with two live servers: a fresh Pro key gets exactly ${share} of ${limit + 20}`, fromMemory.ok === share && fromMemory.limited === limit + 20 - share && fromMemory.other.length === 0, `${fromMemory.ok} admitted, ${fromMemory.limited} refused${fromMemory.other.length ? `, other ${fromMemory.other.join(",")}` : ""}`);

    redis = await startTestRedisServer(port); // empty: persistence is off, as in the deployment tests
    const backAt = Date.now();
    report.note(`Redis was down ${((backAt - stoppedAt) / 1000).toFixed(1)} s`);
    // The limiter probes once a second while degraded, on a request: keep a trickle going.
    const recovered = await waitUntil(async () => {
      await request(url, { headers: { authorization: `Bearer ${keys[1]!.secret}` } });
      const h = await health();
      return h?.rate_limiter?.degraded === false && h.status === "ok";
    }, 20_000, 250);
    report.check("after Redis is back, /healthz shows it in use again (degraded false, status ok)", recovered, `after ${((Date.now() - backAt) / 1000).toFixed(1)} s`);
    await awayFromWindowEdge();
    const fallbacksBefore = fallbacks();
    const after = await burst(url, keys[3]!.secret, limit + 20);
    const keysInRedis = await inspector.dbsize();
    report.check(`limits are in Redis again: a fresh Pro key gets exactly ${limit} of ${limit + 20}, and its counters are in Redis`, after.ok === limit && after.limited === 20 && keysInRedis > 0, `${after.ok} admitted, ${after.limited} refused, Redis holds ${keysInRedis} keys, ${fallbacks() - fallbacksBefore} fallbacks during the burst`);
    report.check("the server process stayed up", server.child.exitCode === null && server.child.signalCode === null);
  } finally {
    inspector.disconnect();
    await server?.stop();
    await redis.stop();
    await database.close();
  }
  return report;
}
