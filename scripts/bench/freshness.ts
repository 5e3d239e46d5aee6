// `npm run bench:freshness`: how fresh the served data is with the venue streams on. One server
// process (`tsx server.ts`, the production Next build beside it) on a private PostgreSQL (default
// settings; or DATABASE_URL's server, a scratch database dropped afterwards) ingests in the server
// (INGEST_IN_SERVER=1): its rounds read every venue's recorded REST answers widened to `--assets`
// synthetic assets (freshness-venues.ts, loaded into the server), and its live feeds
// (INGEST_STREAMS=on with VENUE_STREAM_URL_OVERRIDE, the documented way for a replaying server)
// stream from ONE loopback WebSocket server that plays every replayed venue by path, at the venue's
// push rate, in the venue's recorded frame shape (freshness-streams.ts), on a worker thread of its own
// (stream-player-thread.ts) so that the bench's timestamps do not wait for it. Each frame moves prices;
// `--rate-changes` funding-rate changes a second per venue are stamped when sent. Measured, per
// stamped change: send → the first opportunity frame carrying it on each of `--clients` GET
// /v1/stream clients (Desk key), and send → GET /v1/opportunities (polled tightly, filtered to the
// changed asset and venue) showing it, for a sample. Target p99 < 1 s for both. The baseline, in the
// same run and on the same server with every stream playing: the same latencies while only one
// venue (bybit) changes rates. Also printed: the server's CPU use (/proc user+sys ÷ wall), RSS
// samples (first/last/peak) over the run, micro-batches published, each venue's transport and
// latency as /v1/exchanges reads them back, and the polled venues' worst-case age at their cadence
// (pollCadenceMs + their p99 fetch time, measured here on the same replay).
//
//
// `--layout=worker` measures the scale-out layout instead, as an operator on PostgreSQL runs it: a
// worker (`scripts/worker.ts` with `npm run worker`'s node flags) ingests, streams and publishes the
// micro-batches, and a server that does not ingest (`npm start`'s flags) serves /v1 and the SSE
// clients, reading each set, patch and event as any second process does (LISTEN/NOTIFY, the log).
// CPU and RSS are then both processes', the runtime figures the server's.
//
//   npm run bench:freshness -- [--minutes=10] [--baseline-seconds=60] [--rate-changes=2] [--clients=3]
//     [--assets=600] [--samples-per-second=4] [--layout=server|worker] [--cpu-prof=DIR]     (PUBLISH_BATCH_MS and the like pass through)
import { randomBytes } from "node:crypto";
import type { ChildProcess } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import http from "node:http";
import { monitorEventLoopDelay } from "node:perf_hooks";
import os from "node:os";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { readIngestConfig } from "@/lib/market/ingest/ingest-config";
import { pollCadenceMs } from "@/lib/market/venues/venue-request-limits";
import { STREAM_PROTOCOLS } from "@/lib/market/venues/streams/stream-protocols";
import { VENUE_IDS, type VenueId } from "@/lib/market/model/types";
import { freePort } from "@/tests/support/free-port";
import { createServerDatabase } from "@/tests/support/server-database";
import { seedAccountsWithKeys } from "@/tests/support/seed-accounts";
import { intOption, nodeFlagsOf } from "./bench-args";
import { readCpuMs, readStatus } from "./footprint-proc";
import { startPrivatePostgres, type PrivatePostgres } from "./private-postgres";
import { onOutputLines, scratchRun, startChild, stopChild, waitForHttp } from "./processes";
import { createVenueFetcher } from "./replay-venue-fetcher";
import { VENUE_SPECS, type Stamp } from "./freshness-streams";
import { startStreamPlayerThread } from "./stream-player-thread";
import { microBatchSummary, parseExposition, runtimeSummary, streamThreadSummary } from "./runtime-metrics";
import { latencySummary } from "./sse-frames";
import { profileTables, summariseProfile } from "./profile-summary";

const TARGET_P99_MS = 1_000;
const METRICS_TOKEN = randomBytes(16).toString("hex");
/**
 * The server ingests here as `npm run worker` does on PostgreSQL, so it starts with the worker's
 * young generation (package.json): at 4 MB, `npm start`'s footprint setting, the serving thread
 * spent 31 % of its time collecting garbage at the venues' push rates, at 64 MB 16 %.
 */
const INGESTING_NODE_FLAGS = ["--max-semi-space-size=64"];
/**
 * The baseline's one venue changing rates: one of a channel per market, so its frames keep coming
 * at every --push-scale (an all-markets channel's period times 10 outlasts its stall time).
 */
const BASELINE_VENUE: VenueId = "bybit";
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const minutes = Number(process.argv.find((a) => a.startsWith("--minutes="))?.slice(10) ?? 10);
if (!(minutes > 0)) throw new Error("--minutes must be a positive number");
const baselineSeconds = intOption("baseline-seconds", 60);
const rateChanges = intOption("rate-changes", 2);
const clientCount = intOption("clients", 3);
const assets = intOption("assets", 600);
const samplesPerSecond = intOption("samples-per-second", 4);
/** Every stream channel's period times this: 1 plays the venues' documented push rates. */
const pushScale = Number(process.argv.find((a) => a.startsWith("--push-scale="))?.slice(13) ?? 1);
if (!(pushScale > 0)) throw new Error("--push-scale must be a positive number");
/** Where the server writes a V8 CPU profile of its serving thread over the measured phase (profile-on-signal.ts; read it with profile-summary.ts), if anywhere. */
const profileDir = process.argv.find((a) => a.startsWith("--cpu-prof="))?.slice(11);
const layout = process.argv.find((a) => a.startsWith("--layout="))?.slice(9) ?? "server";
if (layout !== "server" && layout !== "worker") throw new Error("--layout must be server or worker");
const { cleanup } = scratchRun("fods-bench-freshness-", "benchmark");

const now = () => performance.timeOrigin + performance.now();
const ms = (v: number) => `${v.toFixed(0)} ms`;
const load = () => `load ${os.loadavg().map((l) => l.toFixed(2)).join(" ")}`;
const sleep = (t: number) => new Promise((resolve) => setTimeout(resolve, t));
const log = (line: string) => console.log(line);

/** Per replayed venue: its markets as the widened REST replay lists them, and how long a refresh takes. */
async function replayedMarkets() {
  const fetcher = createVenueFetcher({ assets });
  const markets: Partial<Record<VenueId, { id: string; base: string; rate: number; mark: number }[]>> = {};
  const fetchMs = new Map<VenueId, number[]>();
  for (const venue of VENUE_IDS) {
    const times: number[] = [];
    let result;
    for (let i = 0; i < 3; i++) {
      const t0 = now();
      result = await fetcher(venue, { timeoutMs: 30_000 });
      times.push(now() - t0);
    }
    fetchMs.set(venue, times);
    if (result?.status !== "ok" || !VENUE_SPECS[venue]) continue;
    // Every market the replay lists, the recorded ones too: the server subscribes them all, and a
    // socket planned for recorded markets alone (the last of a venue cut into sockets) would never go live.
    // A market as its stream names it: the protocol's stream key where it has one (Hyperliquid's coin).
    const streamKey = STREAM_PROTOCOLS[venue]?.streamKey;
    markets[venue] = result.snapshots.map((m) => ({ id: streamKey?.(m) ?? m.venueMarketId, base: m.base, rate: m.fundingRate ?? 0.0001, mark: m.markPrice ?? 100 }));
  }
  return { markets, fetchMs };
}

/** Each replayed venue's frame, decoded by the venue's own protocol: the frame says what the bench thinks it says. */
function checkFrames(markets: Partial<Record<VenueId, { id: string; rate: number; mark: number }[]>>) {
  for (const [venue, spec] of Object.entries(VENUE_SPECS) as [VenueId, NonNullable<(typeof VENUE_SPECS)[VenueId]>][]) {
    const first = markets[venue]?.[0];
    if (!first) throw new Error(`${venue}: the widened REST replay lists no synthetic market`);
    const channel = spec.channels.find((c) => c.rate)!;
    const row = { ...first, rate: 0.000123456789, next: Date.now() + 3_600_000 };
    const events = STREAM_PROTOCOLS[venue]!.decode(channel.frame([row], Date.now()), Date.now());
    const update = events.flatMap((e) => (e.kind === "updates" ? e.updates : [])).find((u) => u.venueMarketId === first.id);
    if (update?.fields.fundingRate !== row.rate) throw new Error(`${venue}: the protocol reads ${JSON.stringify(events).slice(0, 300)} from the bench's frame`);
  }
}

interface Phase {
  name: string;
  sse: number[];
  /** Each SSE receipt's arrival (epoch ms), beside its latency in `sse`. */
  sseAt: number[];
  /** Each SSE receipt split at its event's `created_at` (the publishing transaction's time): send → created, created → received. */
  created: number[];
  delivered: number[];
  rest: number[];
  restMissed: number;
}

/** One GET /v1/stream client: each opportunity frame's legs are looked up among the stamped changes. */
function openSse(url: string, key: string, onLeg: (exchange: string, rate: number, at: number, createdAt: number) => void): Promise<http.ClientRequest> {
  return new Promise((resolve, reject) => {
    const request = http.get(`${url}/v1/stream?types=opportunity.updated,opportunity.opened`, { headers: { authorization: `Bearer ${key}`, accept: "text/event-stream" } }, (response) => {
      if (response.statusCode !== 200) return reject(new Error(`GET /v1/stream answered ${response.statusCode}`));
      response.setEncoding("utf8");
      let pending = "";
      let comment = "";
      // A stream the server closed takes no more receipts: said, so a run's figures are read with it.
      response.on("end", () => log(`  an SSE client's stream ended (${comment || "no reason given"})`));
      response.on("data", (chunk: string) => {
        const at = now();
        pending += chunk;
        let end;
        while ((end = pending.indexOf("\n\n")) >= 0) {
          const frame = pending.slice(0, end);
          pending = pending.slice(end + 2);
          if (frame.startsWith(": ")) comment = frame.slice(2);
          const data = frame.split("\n").find((l) => l.startsWith("data: "));
          if (!data) continue;
          const event = JSON.parse(data.slice(6)) as { created_at?: string; data?: { opportunity?: { long: { exchange: string; funding_rate: number }; short: { exchange: string; funding_rate: number } } } };
          const opportunity = event.data?.opportunity;
          if (!opportunity) continue;
          const createdAt = Date.parse(event.created_at ?? "");
          onLeg(opportunity.long.exchange, opportunity.long.funding_rate, at, createdAt);
          onLeg(opportunity.short.exchange, opportunity.short.funding_rate, at, createdAt);
        }
      });
      resolve(request);
    });
    request.on("error", reject);
  });
}

async function getJson<T>(url: string, key: string): Promise<T> {
  const response = await fetch(url, { headers: { authorization: `Bearer ${key}` } });
  if (!response.ok) throw new Error(`${url}: ${response.status} ${await response.text()}`);
  return (await response.json()) as T;
}

interface Leg {
  exchange: string;
  funding_rate: number;
}
interface Page {
  data: { items: { long: Leg; short: Leg }[] };
}

/** Polls GET /v1/opportunities for the changed asset and venue until a leg carries the stamped rate; ms from the send, or undefined. */
async function pollUntilServed(url: string, key: string, stamp: Stamp, asset: string, superseded: () => boolean): Promise<number | undefined> {
  const deadline = now() + 30_000;
  while (now() < deadline && !superseded()) {
    const page = await getJson<Page>(`${url}/v1/opportunities?symbol=${asset}&exchange=${stamp.venue}&limit=100`, key);
    const at = now();
    if (page.data.items.some((o) => [o.long, o.short].some((leg) => leg.exchange === stamp.venue && leg.funding_rate === stamp.rate))) return at - stamp.sentAt;
    await sleep(10);
  }
  return undefined;
}

/** The serving thread's CPU profile over the measured phase (profile-on-signal.ts), if it was written. */
function printProfile(dir: string, pid: number, name: string) {
  const file = path.join(dir, `server-${pid}.cpuprofile`);
  if (!existsSync(file)) return log(`\n  no CPU profile was written to ${file}`);
  const result = summariseProfile(file, { root: ROOT, top: 25 });
  log(`\n  CPU profile of the ${name}'s main thread over the measured phase: ${result.busyMs.toFixed(0)} ms busy of ${result.sampledMs.toFixed(0)} ms (${((100 * result.busyMs) / result.sampledMs).toFixed(0)} % of one core)`);
  for (const line of profileTables(result)) log(line);
}

interface Feed {
  transport: string;
  transport_reason: string | null;
  poll_interval_seconds: number | null;
  last_message_age_seconds: number | null;
  latency_p50_ms: number | null;
  latency_p99_ms: number | null;
  latency_samples: number;
}

async function main() {
  if (!existsSync(path.join(ROOT, ".next/BUILD_ID"))) throw new Error("no production build: run `node scripts/ensure-build.mjs` first");
  log(`bench:freshness (${layout === "worker" ? "a worker ingests, a server serves" : "one server ingests and serves"}): ${assets} assets a venue, ${minutes} min, ${rateChanges} rate changes/s a venue, push periods ×${pushScale}, ${clientCount} SSE clients; ${os.cpus().length} CPUs, ${load()}`);
  const { markets, fetchMs } = await replayedMarkets();
  checkFrames(markets);
  const replayed = Object.keys(markets) as VenueId[];
  // Each stamped market's asset, for the answers' filter: not every venue's id spells it (Lighter's market_id).
  const assetOf = new Map(replayed.flatMap((venue) => markets[venue]!.map((m) => [`${venue}|${m.id}`, m.base] as const)));
  log(`  replayed streams: ${replayed.map((v) => `${v} ${markets[v]!.length}`).join(", ")}`);

  const stamps = new Map<string, Stamp>();
  const latest = new Map<string, Stamp>();
  let sampleQueue: Stamp[] = [];
  const player = await startStreamPlayerThread({
    markets,
    rateChangesPerSecond: rateChanges,
    pushScale,
    onStamp: (stamp) => {
      stamps.set(`${stamp.venue}|${stamp.rate}`, stamp);
      latest.set(`${stamp.venue}|${stamp.id}`, stamp);
      sampleQueue.push(stamp);
    },
  });

  let pg: PrivatePostgres | undefined;
  let serverUrl = process.env.DATABASE_URL;
  if (!serverUrl) {
    pg = await startPrivatePostgres("fods-bench-freshness-pg");
    serverUrl = pg.url;
    // Also on Ctrl-C (scratchRun exits): stop() is idempotent.
    process.once("exit", () => pg?.stop());
  }
  const database = await createServerDatabase(serverUrl, "bench_freshness");
  let child: ChildProcess | undefined;
  // The ingesting process, where it is not the server (--layout=worker).
  let worker: ChildProcess | undefined;
  try {
    const [seeded] = await seedAccountsWithKeys(database.db, ["desk"], { name: "freshness", domain: "bench.test", keyName: "bench:freshness", verified: true });
    const key = seeded!.secret;
    const port = await freePort();
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      NODE_ENV: "production",
      HOST: "127.0.0.1",
      PORT: String(port),
      NEXT_TELEMETRY_DISABLED: "1",
      DATABASE_URL: database.url,
      BILLING_ALLOW_DEMO: "1",
      RATE_LIMIT_SCALE: "1000",
      INGEST_IN_SERVER: "1",
      INGEST_STREAMS: "on",
      // GET /metrics: the serving thread's event-loop delay and garbage collection (runtime-metrics.ts).
      HEALTH_DETAILS_TOKEN: METRICS_TOKEN,
      VENUE_STREAM_URL_OVERRIDE: player.url,
      SANDBOX_TICK_MS: String(86_400_000),
      FRESHNESS_ASSETS: String(assets),
      // GRVT's refresh asks one ticker a market, 40 ms apart (its client's throttle): at the widened
      // scale that outlasts the default 10 s, and a venue whose rounds never answer has no markets to stream.
      INGEST_VENUE_TIMEOUT_MS: process.env.INGEST_VENUE_TIMEOUT_MS ?? String(Math.max(10_000, 2 * 40 * assets)),
      // The widened replays clone each venue's BTC at its own recording's price (17,000 to 120,000):
      // at the default 5 % most legs would pair with none. At 2 (no two prices spread more) every
      // asset's prices are still checked and every pair ranked, as in a live round whose venues agree.
      PAIR_PRICE_BOUND: "2",
      // Its replays are of the perp venues; spot legs and the carry set are bench:market's.
      INGEST_SPOT: "off",
    };
    for (const name of ["REDIS_URL", "UPSTASH_REDIS_REST_URL", "UPSTASH_REDIS_REST_TOKEN", "NODE_OPTIONS", "INGEST_DISABLED"]) delete env[name];
    const preload = pathToFileURL(path.join(ROOT, "scripts/bench/freshness-venues.ts")).href;
    const started = now();
    const profile = profileDir ? ["--import", pathToFileURL(path.join(ROOT, "scripts/bench/profile-on-signal.ts")).href] : [];
    if (profileDir) env.BENCH_CPU_PROFILE_DIR = path.resolve(profileDir);
    const serverLines: string[] = [];
    const start = (name: string, flags: string[], entry: string, childEnv: NodeJS.ProcessEnv) => {
      const started = startChild(process.execPath, [...flags, "--import", "tsx", ...profile, "--import", preload, entry], { cwd: ROOT, env: childEnv, stdio: ["ignore", "pipe", "pipe"] });
      const tail: string[] = [];
      started.once("exit", (code, signal) => {
        log(`  the ${name} exited (${code ?? signal}); its last lines:\n    ${tail.map((l) => l.slice(0, 300)).join("\n    ")}`);
      });
      onOutputLines(started, (line) => {
        tail.push(line);
        if (tail.length > 15) tail.shift();
        if (/"level":(40|50|60)|error|round/i.test(line)) serverLines.push(line);
        // The logger writes its level by name (lib/observability/logger.ts); pino's numbers are read too.
        if (/"level":(50|60|"error"|"fatal")/.test(line)) console.log(`  [${name}] ${line.slice(0, 400)}`);
      });
      return started;
    };
    if (layout === "worker") {
      const scripts = (JSON.parse(readFileSync(path.join(ROOT, "package.json"), "utf8")) as { scripts: Record<string, string> }).scripts;
      const { INGEST_IN_SERVER: _ingesting, ...serving } = env;
      child = start("server", nodeFlagsOf(scripts, "serve"), "server.ts", serving);
      worker = start("worker", nodeFlagsOf(scripts, "worker"), "scripts/worker.ts", env);
    } else {
      child = start("server", INGESTING_NODE_FLAGS, "server.ts", env);
    }
    const url = `http://127.0.0.1:${port}`;
    const scrapeRuntime = async () =>
      parseExposition(await fetch(`${url}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } }).then((r) => (r.ok ? r.text() : "")));
    await waitForHttp(`${url}/healthz`, child, 180_000);
    const pid = child.pid!;
    // The processes whose CPU and memory are the service's: the server, and the worker if any.
    const pids = worker ? [pid, worker.pid!] : [pid];
    const rssOf = () => pids.reduce((sum, p) => sum + readStatus(p).rss, 0);
    const cpuMs = () => pids.map((p) => readCpuMs(`/proc/${p}/stat`));
    log(`  server up in ${((now() - started) / 1000).toFixed(1)} s (pid ${pid}${worker ? `, worker pid ${worker.pid}` : ""}), RSS ${(rssOf() / 2 ** 20).toFixed(0)} MB; waiting for the first round and the streams`);

    // The first round publishes the widened markets, then every replayed venue's stream goes live.
    const exchanges = () => getJson<{ data: { items: { id: string; feed: Feed }[] } }>(`${url}/v1/exchanges`, key);
    // An overloaded server may drop a request: the wait asks again. Measurement starts once every
    // replayed venue streams, or after 180 s with those that do (the others are named).
    const deadline = now() + 180_000;
    for (;;) {
      const feeds = await exchanges().then((answer) => answer.data.items, () => []);
      const live = feeds.filter((e) => replayed.includes(e.id as VenueId) && e.feed.transport === "stream").length;
      if (live === replayed.length) break;
      if (now() > deadline) {
        log(`  ${live} of ${replayed.length} replayed venues stream after ${((now() - started) / 1000).toFixed(0)} s: ${feeds.map((e) => `${e.id}=${e.feed.transport}${e.feed.transport_reason ? `(${e.feed.transport_reason})` : ""}`).join(" ")}`);
        break;
      }
      await sleep(2_000);
    }
    const readyRss = rssOf();
    log(`  streams live ${((now() - started) / 1000).toFixed(1)} s after the start; RSS ${(readyRss / 2 ** 20).toFixed(0)} MB with every stream open (${load()})`);

    // The SSE clients and the measurement.
    let phase: Phase = { name: "baseline", sse: [], sseAt: [], created: [], delivered: [], rest: [], restMissed: 0 };
    const phases: Phase[] = [phase];
    let phaseStart = now();
    const clients = await Promise.all(
      Array.from({ length: clientCount }, () => {
        const seen = new Set<Stamp>();
        return openSse(url, key, (exchange, rate, at, createdAt) => {
          const stamp = stamps.get(`${exchange}|${rate}`);
          if (!stamp || seen.has(stamp)) return;
          seen.add(stamp);
          if (stamp.sentAt < phaseStart) return;
          phase.sse.push(at - stamp.sentAt);
          phase.sseAt.push(at);
          phase.created.push(createdAt - stamp.sentAt);
          phase.delivered.push(at - createdAt);
        });
      }),
    );
    // Once the thread applies it: every stamp sent after phaseStart is the baseline venue's.
    await player.changing([BASELINE_VENUE]);
    phaseStart = now();
    sampleQueue = [];
    let polling = 0;
    const sampler = setInterval(() => {
      const stamp = sampleQueue.at(-1);
      sampleQueue = [];
      if (!stamp || polling >= 2) return;
      polling++;
      const mine = phase;
      const asset = assetOf.get(`${stamp.venue}|${stamp.id}`) ?? stamp.id;
      void pollUntilServed(url, key, stamp, asset, () => latest.get(`${stamp.venue}|${stamp.id}`) !== stamp)
        .then((latency) => (latency === undefined ? mine.restMissed++ : mine.rest.push(latency)))
        .catch(() => mine.restMissed++)
        .finally(() => polling--);
    }, 1000 / samplesPerSecond);

    const rss: number[] = [];
    const rssTimer = setInterval(() => rss.push(rssOf()), 10_000);
    // Each micro-batch and each round adds one to the live set's version (rounds also prune the patches, so their rows cannot be counted).
    const patchCount = async () => Number((await database.db.$queryRawUnsafe<{ n: number }[]>(`SELECT version AS n FROM "OpportunitySet" WHERE id = 'live'`))[0]?.n ?? 0);

    log(`\nbaseline: every stream plays, only ${BASELINE_VENUE} changes rates, ${baselineSeconds} s`);
    await sleep(baselineSeconds * 1000);
    phase = { name: "all venues", sse: [], sseAt: [], created: [], delivered: [], rest: [], restMissed: 0 };
    phases.push(phase);
    await player.changing("all");
    phaseStart = now();
    // The bench's own thread reads the SSE clients and polls (the player has its own): its delay is in every figure.
    const benchLoop = monitorEventLoopDelay({ resolution: 10 });
    benchLoop.enable();
    if (profileDir) for (const p of pids) process.kill(p, "SIGUSR2");
    const cpu0 = cpuMs();
    const benchCpu0 = process.cpuUsage();
    const wall0 = now();
    const patches0 = await patchCount();
    const runtime0 = await scrapeRuntime();
    rss.length = 0;
    rss.push(rssOf());
    const runS = Math.max(10, minutes * 60 - baselineSeconds);
    log(`measured: every replayed venue changes rates, ${runS} s`);
    await sleep(runS * 1000);
    const cpus = cpuMs().map((ms, i) => (ms - cpu0[i]!) / (now() - wall0));
    const benchCpuUsed = process.cpuUsage(benchCpu0);
    const benchCpu = (benchCpuUsed.user + benchCpuUsed.system) / 1e6 / ((now() - wall0) / 1000);
    rss.push(rssOf());
    const patches = (await patchCount()) - patches0;
    // Every event of one transaction has its start as createdAt: the largest groups are the rounds'.
    const appended = await database.db.$queryRawUnsafe<{ n: number; at: Date }[]>(
      `SELECT count(*)::int AS n, "createdAt" AS at FROM "MarketEvent" WHERE mode = 'LIVE' AND "createdAt" >= $1::timestamp GROUP BY "createdAt" ORDER BY n DESC`,
      new Date(wall0).toISOString(),
    );
    // What the largest transaction's events were (a round's hold lasts as long as writing them takes): by type, over how many assets.
    const largest = appended[0]
      ? await database.db.$queryRawUnsafe<{ type: string; n: number; assets: number }[]>(
          `SELECT type, count(*)::int AS n, count(DISTINCT coalesce(data->'opportunity'->>'symbol', data->>'symbol'))::int AS assets
             FROM "MarketEvent" WHERE mode = 'LIVE' AND "createdAt" = $1 GROUP BY type ORDER BY n DESC`,
          appended[0].at,
        )
      : [];
    const runtime = await scrapeRuntime();
    benchLoop.disable();
    if (profileDir) for (const p of pids) process.kill(p, "SIGUSR2");
    clearInterval(sampler);
    clearInterval(rssTimer);
    await sleep(2_000);
    for (const c of clients) c.destroy();

    log(`\nResults (${load()})`);
    for (const p of phases) {
      const sse = latencySummary(p.sse);
      const rest = latencySummary(p.rest);
      log(`  ${p.name}: send → SSE frame: ${sse.count} receipts, p50 ${ms(sse.p50)} p90 ${ms(sse.p90)} p99 ${ms(sse.p99)} max ${ms(sse.max)}`);
      const [created, delivered] = [latencySummary(p.created), latencySummary(p.delivered)];
      log(`  ${" ".repeat(p.name.length)}  of which send → the event's created_at p50 ${ms(created.p50)} p99 ${ms(created.p99)}; created_at → received p50 ${ms(delivered.p50)} p99 ${ms(delivered.p99)}`);
      log(`  ${" ".repeat(p.name.length)}  send → GET /v1/opportunities: ${rest.count} samples (${p.restMissed} not seen within 30 s or superseded), p50 ${ms(rest.p50)} p90 ${ms(rest.p90)} p99 ${ms(rest.p99)} max ${ms(rest.max)}`);
    }
    const [base, all] = phases.map((p) => ({ sse: latencySummary(p.sse), rest: latencySummary(p.rest) }));
    log(`  ratio to the baseline (one venue changing): SSE p50 ${(all!.sse.p50 / base!.sse.p50).toFixed(1)}× p99 ${(all!.sse.p99 / base!.sse.p99).toFixed(1)}×; /v1/opportunities p50 ${(all!.rest.p50 / base!.rest.p50).toFixed(1)}× p99 ${(all!.rest.p99 / base!.rest.p99).toFixed(1)}×`);
    log(`  p99 < ${TARGET_P99_MS} ms: SSE ${all!.sse.p99 < TARGET_P99_MS ? "MET" : "MISSED"}, /v1/opportunities ${all!.rest.p99 < TARGET_P99_MS ? "MET" : "MISSED"}`);
    const mb = (b: number) => `${(b / 2 ** 20).toFixed(0)} MB`;
    // The replay stands in for venues on other machines; on this one it takes CPU the server would otherwise have.
    log(`  the bench's own process (the replay's thread, the SSE clients and pollers): CPU ${(100 * benchCpu).toFixed(0)} % of one core`);
    const cpuText = cpus.length === 1 ? `server CPU ${(100 * cpus[0]!).toFixed(0)} %` : `CPU: server ${(100 * cpus[0]!).toFixed(0)} %, worker ${(100 * cpus[1]!).toFixed(0)} %`;
    log(`  ${cpuText} of one core (user+sys ÷ wall over ${runS} s); set versions published (micro-batches and rounds) ${patches} (${(patches / runS).toFixed(2)}/s; PUBLISH_BATCH_MS=${readIngestConfig().PUBLISH_BATCH_MS}${process.env.PUBLISH_BATCH_MS ? "" : " (default)"})`);
    log(`  change events appended over the measured phase: ${appended.reduce((n, g) => n + g.n, 0)} in ${appended.length} transactions; the largest (the rounds'): ${appended.slice(0, 4).map((g) => g.n).join(", ")}`);
    log(`  the largest's events: ${largest.map((g) => `${g.n} ${g.type} (${g.assets} assets)`).join(", ")}`);
    log(`  the bench's own thread (SSE clients and pollers): event-loop delay p50 ${ms(benchLoop.percentile(50) / 1e6)} p99 ${ms(benchLoop.percentile(99) / 1e6)} max ${ms(benchLoop.max / 1e6)}`);
    log(`  serving thread over the measured phase: ${runtimeSummary(runtime0, runtime)}`);
    // The worker serves no /metrics: its stream thread and micro-batches are the server's only in the one-process layout.
    if (!worker) log(`  stream thread over the measured phase: ${streamThreadSummary(runtime0, runtime)}`);
    if (!worker) log(`  micro-batches over the measured phase: ${microBatchSummary(runtime0, runtime)}`);
    log(`  RSS: first ${mb(rss[0]!)}, last ${mb(rss.at(-1)!)}, peak ${mb(Math.max(...rss))}; samples every 10 s: ${rss.map((r) => (r / 2 ** 20).toFixed(0)).join(" ")}`);
    log(`  frames sent: ${(await player.counts()).map((c) => `${c.venue} ${c.frames} on ${c.sockets} sockets (${c.states} states asked)`).join(", ")}`);

    log(`\nVenues as GET /v1/exchanges reads them back:`);
    for (const e of await exchanges().then((answer) => answer.data.items, (error: Error) => (log(`  GET /v1/exchanges failed: ${error.message}`), []))) {
      const f = e.feed;
      const extra =
        f.transport === "poll"
          ? (() => {
              const n = markets[e.id as VenueId]?.length ?? assets;
              const cadence = pollCadenceMs(e.id as VenueId, n);
              const fetchP99 = Math.max(...(fetchMs.get(e.id as VenueId) ?? [0]));
              return `; worst-case age at its cadence ${((cadence + fetchP99) / 1000).toFixed(1)} s (cadence ${(cadence / 1000).toFixed(0)} s + fetch ${ms(fetchP99)})`;
            })()
          : "";
      log(
        `  ${e.id.padEnd(14)} ${f.transport.padEnd(6)} ${f.transport_reason ?? ""} last message ${f.last_message_age_seconds ?? "–"} s ago, venue→publish p50 ${f.latency_p50_ms ?? "–"} p99 ${f.latency_p99_ms ?? "–"} ms over ${f.latency_samples}${extra}`,
      );
    }
    // Each round's line, for its time against the tail: a round that changes many markets re-ranks the set.
    const rounds = serverLines.filter((l) => /ingestion round/.test(l));
    // And how long each held the micro-batches back (to its commit), of which waiting for the batch in flight.
    const holds = serverLines.flatMap((l) => {
      const [held, inFlight] = [/"heldMs":(\d+)/.exec(l)?.[1], /"inFlightMs":(\d+)/.exec(l)?.[1]];
      return held === undefined ? [] : [`${held}${inFlight === undefined ? "" : ` (${inFlight} in flight)`}`];
    });
    log(`\n  the server's rounds (${rounds.length}):\n    ${rounds.map((l) => l.slice(0, 160)).join("\n    ")}`);
    log(`  micro-batches held by the rounds: ${holds.join(", ")} ms`);
    const published = rounds.map((l) => Date.parse(/"time":"([^"]+)"/.exec(l)?.[1] ?? "")).filter((t) => Number.isFinite(t));
    const measured = phases.at(-1)!;
    // Where in a round's period the tail falls: receipts by their time to the nearest round publish
    // (a round fetches, ranks and derives its events in the seconds before it publishes).
    const buckets = [-30, -20, -10, 0, 10, 20, 30];
    const toPublish = (at: number) => published.reduce((best, t) => (Math.abs(at - t) < Math.abs(best) ? at - t : best), Number.POSITIVE_INFINITY);
    const cells = buckets.slice(0, -1).map((from, i) => {
      const to = buckets[i + 1]!;
      const summary = latencySummary(measured.sse.filter((_, j) => {
        const d = toPublish(measured.sseAt[j]!) / 1000;
        return d >= from && d < to;
      }));
      return `[${from}, ${to}) s: ${summary.count}, p50 ${ms(summary.p50)} p90 ${ms(summary.p90)} p99 ${ms(summary.p99)}`;
    });
    log(`  send → SSE frame by the receipt's time to the nearest round's publish:\n    ${cells.join("\n    ")}`);
    if (profileDir) pids.forEach((p, i) => printProfile(path.resolve(profileDir), p, i === 0 ? "server" : "worker"));
    const warnings = serverLines.filter((l) => /"level":(40|50)/.test(l));
    if (warnings.length) log(`\n  the server logged ${warnings.length} warnings/errors; the first: ${warnings.slice(0, 3).map((l) => l.slice(0, 300)).join("\n    ")}`);
  } finally {
    if (worker) await stopChild(worker, "SIGINT", 30_000);
    if (child) await stopChild(child, "SIGINT", 30_000);
    await player.close();
    await database.close();
    pg?.stop();
  }
}

main()
  .then(cleanup)
  .catch(async (error) => {
    console.error("[freshness] failed:", error);
    await cleanup();
    process.exit(1);
  });
