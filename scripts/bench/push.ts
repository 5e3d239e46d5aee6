// `npm run bench:push`: push delivery's performance targets, on one production
// server process (.next/fods/server.mjs, as `npm start` runs it):
//   1. `--subscribers` (1,000) concurrent GET /v1/stream connections, spread over `--accounts` Desk
//      accounts (STREAM_MAX_DESK raised to fit), receive a round of `--events` change events published
//      `--rounds` times; per subscriber and event, the time from the publish's commit to the frame's
//      arrival: p50/p90/p99/max, target p99 < 250 ms, and the ratio to the same measurement with one
//      subscriber in the same run. Memory per idle stream: the server's RSS and JS heap (after a full
//      collection) with every stream open and idle, minus with none, divided by their number.
//   2. `--endpoints` (500) webhook endpoints (10 per Desk account, the tier's cap) on one loopback
//      receiver in this process (WEBHOOK_ALLOW_PRIVATE_URLS=1): one published event is delivered to
//      each; the time from the commit to each receipt, every signature checked: p50/p99/max, target
//      p99 < 5 s, and the ratio to one endpoint's delivery in the same run.
// Events are published inside the server (scripts/bench/push-publisher.ts, loaded with --import):
// appended by the log's writer in one transaction as a round's publish does, then the process told,
// as a round tells it. Embedded PGlite by default (a scratch data directory); with DATABASE_URL
// (postgres://…) a scratch database on that server, dropped afterwards (webhooks then run in the
// server: WEBHOOKS_IN_SERVER=1). The clients and the receiver run in this process, so they share the
// machine's cores with the server: each subscriber reads its connection's raw bytes into one buffer
// shared by all (sse-frames.ts), as lean a client as can be, so that what is measured is the server
// (node's HTTP client allocating a buffer per read cost more CPU than the server's own writing). The
// load average is printed with each figure, since the machine is shared.
//
//   npm run bench:push -- [--subscribers=1000] [--accounts=50] [--events=100] [--rounds=3] [--endpoints=500]
//     [--only=stream|webhooks] [--profile]  (a CPU profile of the server, summarised at the end)
import type { ChildProcess } from "node:child_process";
import { createHmac, timingSafeEqual } from "node:crypto";
import { readdirSync } from "node:fs";
import http from "node:http";
import net from "node:net";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import type { Db } from "@/lib/db";
import { openDatabase, type OpenDatabase } from "@/lib/db/open-database";
import type { NewEvent } from "@/lib/events/event-data";
import { keyModeToDb } from "@/lib/keys/mode";
import { planOf } from "@/lib/plans";
import { newSigningSecret } from "@/lib/webhooks/webhook-signature";
import { freePort } from "@/tests/support/free-port";
import { createServerDatabase } from "@/tests/support/server-database";
import { seedAccountsWithKeys } from "@/tests/support/seed-accounts";
import { intOption } from "./bench-args";
import { profileTables, summariseProfile } from "./profile-summary";
import { onOutputLines, scratchRun, startChild, stopChild, waitForHttp } from "./processes";
import type { PublisherCommand, PublisherReply, PublisherRequest } from "./push-publisher";
import { roundEvents, venueEvent } from "./push-round";
import { latencySummary, SseIdReader } from "./sse-frames";

const TARGET_STREAM_P99_MS = 250;
const TARGET_WEBHOOK_P99_MS = 5_000;
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");

const serverUrl = process.env.DATABASE_URL;
const onPostgres = Boolean(serverUrl);
const subscribers = intOption("subscribers", 1_000);
const accounts = intOption("accounts", 50);
const eventCount = intOption("events", 100);
const rounds = intOption("rounds", 3);
const endpointCount = intOption("endpoints", 500);
const deskEndpoints = planOf("desk").webhookEndpoints;
if (endpointCount > accounts * deskEndpoints) throw new Error(`--endpoints: at most ${deskEndpoints} per account, so ${accounts * deskEndpoints} with --accounts=${accounts}`);
const streamsPerAccount = Math.ceil(subscribers / accounts);
const only = process.argv.find((a) => a.startsWith("--only="))?.slice("--only=".length);
if (only !== undefined && only !== "stream" && only !== "webhooks") throw new Error("--only must be stream or webhooks");
/** A CPU profile of the server, summarised when it stops (what limits a figure). */
const profile = process.argv.includes("--profile");

const { dir: tmp, cleanup } = scratchRun("fods-bench-push-", "benchmark");
const now = () => performance.timeOrigin + performance.now();
const ms = (value: number) => `${value.toFixed(1)} ms`;
const load = () => `load ${os.loadavg().map((l) => l.toFixed(2)).join(" ")}`;

function log(message: string) {
  console.log(message);
}

interface Seeded {
  keys: string[];
  endpoints: { url: string; secret: string }[];
}

/**
 * Desk accounts, one live key each, and their webhook endpoints (at the tier's cap): endpoint 0 takes
 * venue.stale and venue.recovered, the others venue.stale only, so a venue.recovered reaches one
 * endpoint (the baseline) and a venue.stale all of them; the streams' opportunity events none.
 */
async function seed(db: Db, receiver: string): Promise<Seeded> {
  const seeded = await seedAccountsWithKeys(
    db,
    Array.from({ length: accounts }, () => "desk" as const),
    { name: "push", domain: "bench.test", keyName: "bench:push", verified: true },
  );
  const userIds = seeded.map((account) => account.userId);
  const endpoints = Array.from({ length: endpointCount }, (_, i) => ({ url: `${receiver}/hook/${i}`, secret: newSigningSecret() }));
  await db.webhookEndpoint.createMany({
    data: endpoints.map((endpoint, i) => ({
      userId: userIds[Math.floor(i / deskEndpoints)]!,
      keyMode: keyModeToDb("live"),
      url: endpoint.url,
      eventTypes: i === 0 ? ["venue.stale", "venue.recovered"] : ["venue.stale"],
      secret: endpoint.secret,
      description: "bench:push",
    })),
  });
  return { keys: seeded.map((account) => account.secret), endpoints };
}

// ---------------------------------------------------------------------------------------------
// The server, with the publisher loaded into it.

interface Server {
  child: ChildProcess;
  url: string;
  call(command: PublisherRequest): Promise<PublisherReply>;
}

async function startServer(env: NodeJS.ProcessEnv): Promise<Server> {
  const port = await freePort();
  const publisher = pathToFileURL(path.join(ROOT, "scripts/bench/push-publisher.ts")).href;
  // `npm start`'s flags, with tsx and the publisher loaded before the bundle.
  const profileArgs = profile ? ["--cpu-prof", "--cpu-prof-dir", path.join(tmp, "cpu-profile"), "--cpu-prof-interval", "1000"] : [];
  const args = [...profileArgs, "--expose-gc", "--v8-pool-size=1", "--max-semi-space-size=4", "--import", "tsx", "--import", publisher, ".next/fods/server.mjs"];
  const started = Date.now();
  const child = startChild(process.execPath, args, { cwd: ROOT, env: { ...env, PORT: String(port) }, stdio: ["ignore", "pipe", "pipe", "ipc"] });
  onOutputLines(child, (line) => {
    if (line.trim()) console.log(`  [server] ${line}`);
  });
  const url = `http://127.0.0.1:${port}`;
  await waitForHttp(`${url}/healthz`, child, 120_000);
  log(`  server up on ${url} in ${((Date.now() - started) / 1000).toFixed(1)} s (pid ${child.pid})`);
  let next = 0;
  const waiting = new Map<number, (reply: PublisherReply) => void>();
  child.on("message", (reply: PublisherReply) => {
    waiting.get(reply.id)?.(reply);
    waiting.delete(reply.id);
  });
  return {
    child,
    url,
    call(command) {
      const id = ++next;
      return new Promise((resolve, reject) => {
        waiting.set(id, (reply) => (reply.error ? reject(new Error(`in the server: ${reply.error}`)) : resolve(reply)));
        child.send({ ...command, id } as PublisherCommand);
      });
    },
  };
}

/** Publishes `events` in the server; answers the commit's time and the sequences they got. */
async function publish(server: Server, events: NewEvent[]): Promise<{ committedAt: number; first: number; last: number }> {
  const reply = await server.call({ kind: "publish", events });
  return { committedAt: reply.committedAt!, first: Number(reply.first), last: Number(reply.last) };
}

// ---------------------------------------------------------------------------------------------
// 1. The stream.

/** Every frame received by every subscriber: the event's sequence and when its frame was complete. */
class Receipts {
  sequences: number[] = [];
  times: number[] = [];
  add(sequence: number, at: number) {
    this.sequences.push(sequence);
    this.times.push(at);
  }
  /** How many receipts fall in [first, last]. */
  countIn(first: number, last: number): number {
    let n = 0;
    for (const s of this.sequences) if (s >= first && s <= last) n++;
    return n;
  }
  clear() {
    this.sequences = [];
    this.times = [];
  }
}

const READ_BUFFER = Buffer.alloc(256 * 1024);

interface Subscriber {
  close(): void;
}

/**
 * One subscriber: a GET /v1/stream on its own connection, the response read as raw bytes (see
 * sse-frames.ts) once its status line says 200; connected when the first bytes arrive.
 */
function openStream(url: string, key: string, receipts: Receipts): Promise<Subscriber> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    // Every frame a read completes arrived with it: one clock reading per read.
    let arrived = 0;
    const reader = new SseIdReader((sequence) => receipts.add(sequence, arrived));
    let head = "";
    const socket = net.connect({
      port: Number(port),
      host: hostname,
      // Reads land in one buffer shared by every subscriber (each read is handled before the next),
      // not a new allocation per read: 1,000 streams read over 100 MB a round.
      onread: {
        buffer: READ_BUFFER,
        callback(length) {
          arrived = now();
          const chunk = READ_BUFFER.subarray(0, length);
          if (head === "") {
            head = chunk.toString("latin1", 0, 12);
            if (head !== "HTTP/1.1 200") {
              socket.destroy();
              reject(new Error(`GET /v1/stream answered: ${chunk.toString("utf8")}`));
              return false;
            }
            resolve({ close: () => socket.destroy() });
          }
          reader.push(chunk);
          return true;
        },
      },
    });
    socket.write(`GET /v1/stream HTTP/1.1\r\nHost: ${hostname}:${port}\r\nAuthorization: Bearer ${key}\r\nAccept: text/event-stream\r\n\r\n`);
    socket.on("error", (error) => (head ? undefined : reject(error)));
  });
}

async function openStreams(url: string, keys: string[], count: number, receipts: Receipts): Promise<Subscriber[]> {
  const opened: Subscriber[] = [];
  // In batches: a connection storm is not what is measured.
  for (let i = 0; i < count; i += 50) {
    const batch = Array.from({ length: Math.min(50, count - i) }, (_, j) => openStream(url, keys[Math.floor((i + j) / streamsPerAccount)]!, receipts));
    opened.push(...(await Promise.all(batch)));
  }
  return opened;
}

async function waitFor(condition: () => boolean, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  return true;
}

interface RoundFigures {
  /** Every (subscriber, event): commit → frame received. */
  all: number[];
  /** Per subscriber and round: commit → the round's last frame. */
  whole: number[];
  missing: number;
}

/** Publishes the round `rounds` times to `count` open subscribers; each round's receipts are timed from its commit. */
async function measureRounds(server: Server, receipts: Receipts, count: number, events: NewEvent[]): Promise<RoundFigures> {
  const figures: RoundFigures = { all: [], whole: [], missing: 0 };
  for (let r = 0; r < rounds; r++) {
    receipts.clear();
    const { committedAt, first, last } = await publish(server, events);
    const expected = count * (last - first + 1);
    const complete = await waitFor(() => receipts.sequences.length >= expected, 60_000);
    const received = receipts.countIn(first, last);
    if (!complete) figures.missing += expected - received;
    // The last frame of a round per subscriber: receipts come in order per connection, so the
    // round's last sequence marks it.
    for (let i = 0; i < receipts.sequences.length; i++) {
      const s = receipts.sequences[i]!;
      if (s < first || s > last) continue;
      const latency = receipts.times[i]! - committedAt;
      figures.all.push(latency);
      if (s === last) figures.whole.push(latency);
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  return figures;
}

function printFigures(label: string, figures: RoundFigures) {
  const all = latencySummary(figures.all);
  const whole = latencySummary(figures.whole);
  log(`  ${label}: ${all.count.toLocaleString("en")} frames, p50 ${ms(all.p50)} p90 ${ms(all.p90)} p99 ${ms(all.p99)} max ${ms(all.max)}`);
  log(`  ${" ".repeat(label.length)}  whole round per subscriber: p50 ${ms(whole.p50)} p99 ${ms(whole.p99)} max ${ms(whole.max)}${figures.missing ? `; ${figures.missing} frames MISSING` : ""}  (${load()})`);
  return all;
}

/** The server's memory after full collections, once it has settled (a few samples, the last kept). */
async function memory(server: Server) {
  let last = (await server.call({ kind: "memory" })).memory!;
  for (let i = 0; i < 3; i++) {
    await new Promise((resolve) => setTimeout(resolve, 500));
    last = (await server.call({ kind: "memory" })).memory!;
  }
  return last;
}

async function benchStream(server: Server, keys: string[]) {
  const events = roundEvents(eventCount);
  const bytes = events.reduce((sum, e) => sum + JSON.stringify(e.data).length, 0);
  log(`\n1. ${subscribers.toLocaleString("en")} SSE subscribers on one server process; a round of ${events.length} events (${Math.round(bytes / events.length)} bytes of data each on average), published ${rounds} times`);
  const receipts = new Receipts();
  const warmUp = events.slice(0, 1);

  // Baseline: the same round to one subscriber.
  const [single] = await openStreams(server.url, keys, 1, receipts);
  const subscribedOne = await publish(server, warmUp);
  await waitFor(() => receipts.countIn(subscribedOne.first, subscribedOne.last) >= 1, 30_000);
  const baseline = printFigures("baseline, 1 subscriber", await measureRounds(server, receipts, 1, events));
  single!.close();
  await new Promise((resolve) => setTimeout(resolve, 1_000));
  // The server's memory with no stream, once warm (the start-up's garbage and a round's buffers gone).
  const before = await memory(server);

  const t0 = performance.now();
  const streams = await openStreams(server.url, keys, subscribers, receipts);
  log(`  ${streams.length} streams open in ${((performance.now() - t0) / 1000).toFixed(1)} s (${streamsPerAccount} per account over ${Math.ceil(subscribers / streamsPerAccount)} accounts)`);
  // One event each subscriber must receive before anything is measured: every stream has joined the feed.
  receipts.clear();
  const joined = await publish(server, warmUp);
  if (!(await waitFor(() => receipts.countIn(joined.first, joined.last) >= subscribers, 60_000))) {
    throw new Error(`only ${receipts.countIn(joined.first, joined.last)} of ${subscribers} streams received the warm-up event`);
  }
  await new Promise((resolve) => setTimeout(resolve, 2_000));
  const idle = await memory(server);
  // What the clients cost: they share the machine's cores with the server.
  const cpuBefore = process.cpuUsage();
  const figures = await profiled(`${subscribers} subscribers, ${rounds} rounds`, () => measureRounds(server, receipts, subscribers, events));
  const cpu = process.cpuUsage(cpuBefore);
  const loaded = printFigures(`${subscribers} subscribers`, figures);
  log(`  the ${subscribers} clients (this process) used ${((cpu.user + cpu.system) / 1000 / rounds).toFixed(0)} ms of CPU per round (${(cpu.system / 1000 / rounds).toFixed(0)} ms in the kernel)`);
  const met = loaded.p99 < TARGET_STREAM_P99_MS && figures.missing === 0;
  log(
    `  p99 target < ${TARGET_STREAM_P99_MS} ms: ${met ? "MET" : "MISSED"} (p99 ${ms(loaded.p99)}, ${(loaded.p99 / TARGET_STREAM_P99_MS).toFixed(2)} of the target); ` +
      `ratio to 1 subscriber: p50 ${(loaded.p50 / baseline.p50).toFixed(1)}×, p99 ${(loaded.p99 / baseline.p99).toFixed(1)}×`,
  );
  const kb = (bytesDiff: number) => `${(bytesDiff / subscribers / 1024).toFixed(1)} KB`;
  log(
    `  memory per idle stream: RSS ${kb(idle.rss - before.rss)}, JS heap ${kb(idle.heapUsed - before.heapUsed)}, external ${kb(idle.external - before.external)} ` +
      `(server RSS ${(before.rss / 2 ** 20).toFixed(0)} MB with no stream, ${(idle.rss / 2 ** 20).toFixed(0)} MB with ${subscribers}; heap ${(before.heapUsed / 2 ** 20).toFixed(0)} → ${(idle.heapUsed / 2 ** 20).toFixed(0)} MB, after a full collection)  (${load()})`,
  );
  for (const stream of streams) stream.close();
}

// ---------------------------------------------------------------------------------------------
// 2. Webhooks.

interface Receipt {
  endpoint: number;
  eventId: string;
  at: number;
  signed: boolean;
}

/** Standard Webhooks verification, written here from the specification rather than with the service's signer. */
function verifySignature(secret: string, headers: http.IncomingHttpHeaders, body: string): boolean {
  const id = headers["webhook-id"];
  const timestamp = headers["webhook-timestamp"];
  const signatures = headers["webhook-signature"];
  if (typeof id !== "string" || typeof timestamp !== "string" || typeof signatures !== "string") return false;
  if (Math.abs(Date.now() / 1000 - Number(timestamp)) > 300) return false;
  const key = Buffer.from(secret.replace(/^whsec_/, ""), "base64");
  const expected = createHmac("sha256", key).update(`${id}.${timestamp}.${body}`).digest();
  return signatures.split(" ").some((s) => {
    const [version, value] = s.split(",");
    const given = Buffer.from(value ?? "", "base64");
    return version === "v1" && given.length === expected.length && timingSafeEqual(given, expected);
  });
}

function startReceiver(endpoints: () => Seeded["endpoints"], receipts: Receipt[]): Promise<{ url: string; close: () => Promise<void> }> {
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const at = now();
      const body = Buffer.concat(chunks).toString("utf8");
      const endpoint = Number(/^\/hook\/(\d+)$/.exec(req.url ?? "")?.[1] ?? -1);
      const secret = endpoints()[endpoint]?.secret;
      let eventId = "";
      try {
        eventId = (JSON.parse(body) as { id: string }).id;
      } catch {
        // counted as unsigned below
      }
      receipts.push({ endpoint, eventId, at, signed: secret !== undefined && verifySignature(secret, req.headers, body) });
      res.writeHead(200, { "content-type": "text/plain" }).end("ok");
    });
  });
  server.keepAliveTimeout = 65_000;
  return new Promise((resolve) =>
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as AddressInfo;
      resolve({
        url: `http://127.0.0.1:${port}`,
        close: () =>
          new Promise((done) => {
            server.closeAllConnections();
            server.close(() => done());
          }),
      });
    }),
  );
}

async function benchWebhooks(server: Server, receipts: Receipt[]) {
  log(`\n2. ${endpointCount} webhook endpoints on a loopback receiver; one event to each, published ${rounds} times`);
  const timed = async (type: "venue.stale" | "venue.recovered", expected: number) => {
    const latencies: number[] = [];
    let unsigned = 0;
    let missing = 0;
    for (let r = 0; r < rounds; r++) {
      receipts.length = 0;
      const { committedAt, first } = await publish(server, [venueEvent(type, Date.now())]);
      const id = `evt_${String(first).padStart(16, "0")}`;
      const mine = () => receipts.filter((x) => x.eventId === id);
      if (!(await waitFor(() => mine().length >= expected, 60_000))) missing += expected - mine().length;
      for (const receipt of mine()) {
        latencies.push(receipt.at - committedAt);
        if (!receipt.signed) unsigned++;
      }
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
    return { summary: latencySummary(latencies), unsigned, missing };
  };
  const single = await timed("venue.recovered", 1);
  log(`  baseline, 1 endpoint: p50 ${ms(single.summary.p50)} p99 ${ms(single.summary.p99)} max ${ms(single.summary.max)}  (${load()})`);
  const all = await profiled(`${endpointCount} webhook endpoints, ${rounds} events`, () => timed("venue.stale", endpointCount));
  const s = all.summary;
  log(
    `  ${endpointCount} endpoints: ${s.count} receipts, p50 ${ms(s.p50)} p90 ${ms(s.p90)} p99 ${ms(s.p99)} max ${ms(s.max)}; ` +
      `signatures ${all.unsigned + single.unsigned === 0 ? "all valid" : `${all.unsigned + single.unsigned} INVALID`}${all.missing ? `; ${all.missing} MISSING` : ""}  (${load()})`,
  );
  const met = s.p99 < TARGET_WEBHOOK_P99_MS && all.missing === 0 && all.unsigned === 0;
  log(
    `  p99 target < ${TARGET_WEBHOOK_P99_MS} ms: ${met ? "MET" : "MISSED"} (${(s.p99 / TARGET_WEBHOOK_P99_MS).toFixed(2)} of the target); ` +
      `ratio to 1 endpoint: p50 ${(s.p50 / single.summary.p50).toFixed(1)}×, p99 ${(s.p99 / single.summary.p99).toFixed(1)}×`,
  );
}

// ---------------------------------------------------------------------------------------------

/** The measured stretches (on the profile's clock, µs), for `--profile`. */
const profileWindows: { label: string; from: number; to: number }[] = [];
const monotonicUs = () => Number(process.hrtime.bigint() / 1000n);

async function profiled<T>(label: string, run: () => Promise<T>): Promise<T> {
  const from = monotonicUs();
  try {
    return await run();
  } finally {
    profileWindows.push({ label, from, to: monotonicUs() });
  }
}

function printProfile() {
  const dir = path.join(tmp, "cpu-profile");
  const file = readdirSync(dir).find((f) => f.endsWith(".cpuprofile"));
  if (!file) return log("\nno CPU profile was written");
  for (const window of profileWindows) {
    const result = summariseProfile(path.join(dir, file), { root: ROOT, top: 15, windowUs: [window.from, window.to] });
    const scope = result.windowed ? window.label : `${window.label}: the window did not match the profile's clock, so the server's WHOLE life`;
    log(`\nCPU profile of the server, ${scope}: ${result.busyMs.toFixed(0)} ms busy of ${result.sampledMs.toFixed(0)} ms (${((100 * result.busyMs) / result.sampledMs).toFixed(0)} % of one core)`);
    for (const line of profileTables(result)) log(line);
  }
}

async function main() {
  log(
    onPostgres
      ? `bench:push on PostgreSQL (scratch database on ${new URL(serverUrl!).host}); ${os.cpus().length} CPUs, ${load()}`
      : `bench:push on embedded PGlite (a scratch data directory; set DATABASE_URL for PostgreSQL); ${os.cpus().length} CPUs, ${load()}`,
  );
  let endpoints: Seeded["endpoints"] = [];
  const webhookReceipts: Receipt[] = [];
  const receiver = await startReceiver(() => endpoints, webhookReceipts);

  const dataDir = path.join(tmp, "data");
  const database: OpenDatabase & { url?: string } = onPostgres ? await createServerDatabase(serverUrl!, "bench_push") : await openDatabase({ driver: "pglite", dataDir });
  let server: Server | undefined;
  try {
    const seeded = await seed(database.db, receiver.url);
    endpoints = seeded.endpoints;
    log(`  seeded ${accounts} Desk accounts with a live key each and ${endpoints.length} webhook endpoints`);
    // PGlite is one process's: the server opens it next.
    if (!onPostgres) await database.close();

    const env: NodeJS.ProcessEnv = {
      ...process.env,
      NODE_ENV: "production",
      HOST: "127.0.0.1",
      DATA_DIR: dataDir,
      NEXT_TELEMETRY_DISABLED: "1",
      RATE_LIMIT_SCALE: "1000",
      // No round replaces what is published here, and no sandbox tick (test mode) runs meanwhile.
      INGEST_DISABLED: "1",
      SANDBOX_TICK_MS: String(86_400_000),
      STREAM_MAX_DESK: String(streamsPerAccount),
      WEBHOOK_ALLOW_PRIVATE_URLS: "1",
      WEBHOOKS_IN_SERVER: "1",
    };
    for (const name of ["REDIS_URL", "UPSTASH_REDIS_REST_URL", "UPSTASH_REDIS_REST_TOKEN", "DATABASE_URL"]) delete env[name];
    if (onPostgres) {
      env.DATABASE_URL = database.url;
      // A production server on PostgreSQL refuses demo billing unless told: no account here pays.
      env.BILLING_ALLOW_DEMO = "1";
    }
    server = await startServer(env);

    if (only !== "webhooks") await benchStream(server, seeded.keys);
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    if (only !== "stream") await benchWebhooks(server, webhookReceipts);
  } finally {
    if (server) await stopChild(server.child, "SIGINT", 30_000);
    if (server && profile) printProfile();
    if (onPostgres) await database.close();
    await receiver.close();
    await cleanup();
  }
}

main().catch(async (error) => {
  console.error(error);
  await cleanup();
  process.exit(1);
});
