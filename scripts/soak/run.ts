// `npm run soak`: one production server on PostgreSQL and Redis under mixed read/write traffic from
// many keys at the sum of their rate limits, for --minutes. The keys' plans follow --mix (Free:Pro:Desk
// weights): by default 90:9:1, a customer base where most accounts are Free (their keys may only call
// /v1/auth/verify, 10 a minute); --mix=0:2:1 is the paid-only population, whose limits sum to far
// more than one process on a small machine answers.
// Checks that every answer is 2xx or 429, that the server's memory stays flat (RSS sampled every
// 10 s) and that no key ever gets more 2xx answers in one of the limiter's 60 s windows than its
// plan allows. A few "hot" keys are driven at 1.5× their limit so the limit itself is exercised.
// When the machine cannot answer the sum of the limits, the first 15 s measure what it can answer
// and the run continues at 75 % of that (printed), all keys scaled alike except the hot ones.
//
//   npm run soak -- [--minutes=10] [--keys=1000] [--mix=90:9:1] [--rate=<req/s>] [--hot=5] [--max-in-flight=256]
//     [--store-timeout-ms=<ms>]  (RATE_LIMIT_STORE_TIMEOUT_MS for the server; default the production 50)
//     [--profile=<dir>]  (writes the server's CPU profile there when it stops, for Chrome DevTools)
//   With DATABASE_URL and REDIS_URL set it uses a new database on that server and that Redis;
//   otherwise it starts a private PostgreSQL and Redis on loopback (as .ci/run does) and stops them.
import { readFileSync } from "node:fs";
import os from "node:os";
import type { Tier } from "@/lib/keys/permissions";
import { TIERS } from "@/lib/keys/permissions";
import { requestsPerMinute } from "@/lib/plans";
import { readCpuMs } from "@/scripts/bench/footprint-proc";
import { killAllChildrenNow, runMain, stopAllChildren } from "@/scripts/bench/processes";
import { createServerDatabase, readHealth, seedOpportunities, startServer, type RunningServer, type ServerDatabase } from "@/scripts/faults/harness";
import { seedAccountsWithKeys } from "@/tests/support/seed-accounts";
import { startPrivateServices, type PrivateServices } from "./private-services";
import { parseMix, tiersFor } from "./key-mix";
import { runTraffic, type SoakKey } from "./traffic";

function option(name: string, fallback: number): number {
  const arg = process.argv.find((a) => a.startsWith(`--${name}=`));
  const value = arg ? Number(arg.slice(name.length + 3)) : fallback;
  if (!Number.isFinite(value) || value < 0) throw new Error(`--${name} must be a non-negative number`);
  return value;
}

const options = {
  minutes: option("minutes", 10),
  keys: Math.round(option("keys", 1000)),
  rate: process.argv.some((a) => a.startsWith("--rate=")) ? option("rate", 0) : undefined,
  /** How many keys are driven at 1.5× their limit: all Pro but every fifth, which is Desk. */
  hot: Math.round(option("hot", 5)),
  maxInFlight: Math.round(option("max-in-flight", 256)),
  /** Unset: the production default (50 ms). A wider budget separates store fallbacks from the rest. */
  storeTimeoutMs: process.argv.some((a) => a.startsWith("--store-timeout-ms=")) ? option("store-timeout-ms", 50) : undefined,
};
const profileDir = process.argv.find((a) => a.startsWith("--profile="))?.slice("--profile=".length);
const mix = parseMix(process.argv.find((a) => a.startsWith("--mix="))?.slice("--mix=".length) ?? "90:9:1");
const SAMPLE_MS = 10_000;
const CALIBRATE_MS = 15_000;

const log = (line: string) => console.log(`[soak] ${line}`);
const fmt = (n: number, digits = 0) => (Number.isFinite(n) ? n.toFixed(digits) : "n/a");
const mb = (bytes: number) => `${fmt(bytes / 1_048_576, 0)} MB`;

function rssOf(pid: number): number {
  const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
  return match ? Number(match[1]) * 1024 : NaN;
}

/** CPU seconds (user + system) a process has used, from /proc. */
function cpuSecondsOf(pid: number): number {
  return readCpuMs(`/proc/${pid}/stat`) / 1000;
}

function percentile(sorted: Float64Array, p: number): number {
  return sorted.length ? sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]! : NaN;
}

async function seedKeys(database: ServerDatabase, count: number): Promise<{ secret: string; tier: Tier }[]> {
  const tiers = tiersFor(count, mix);
  const { db } = database;
  const accounts = await seedAccountsWithKeys(db, tiers, { name: "soak", domain: "soak.test", keyName: "soak key" });
  return accounts.map(({ tier, secret }) => ({ secret, tier }));
}

let services: PrivateServices | undefined;
let database: ServerDatabase | undefined;
let server: RunningServer | undefined;

async function cleanup() {
  await server?.stop().catch(() => undefined);
  await stopAllChildren();
  await database?.close().catch((error) => console.error("dropping the soak database failed:", error));
  services?.stop();
  services = undefined;
}
process.on("exit", () => {
  killAllChildrenNow();
  services?.stop();
});
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.on(signal, () => {
    console.error(`\n${signal}: stopping the soak`);
    void cleanup().finally(() => process.exit(130));
  });
}

async function main(): Promise<boolean> {
  const begun = Date.now();
  let databaseUrl = process.env.DATABASE_URL;
  let redisUrl = process.env.REDIS_URL;
  if (!databaseUrl || !redisUrl) {
    services = await startPrivateServices();
    ({ databaseUrl, redisUrl } = services);
    log(`started a private PostgreSQL and Redis (${databaseUrl}, ${redisUrl})`);
  } else {
    log(`using DATABASE_URL's server (a new database on it) and REDIS_URL`);
  }
  database = await createServerDatabase(databaseUrl);
  const seeded = await seedKeys(database, options.keys);
  const opportunities = await seedOpportunities(database.db, 2_000);
  const symbols = [...new Set(opportunities.map((o) => o.symbol))];
  server = await startServer({
    databaseUrl: database.url,
    redisUrl,
    ...(options.storeTimeoutMs !== undefined && { extra: { RATE_LIMIT_STORE_TIMEOUT_MS: String(options.storeTimeoutMs) } }),
    ...(profileDir && { nodeArgs: ["--cpu-prof", `--cpu-prof-dir=${profileDir}`] }),
  });
  const pid = server.child.pid!;
  // What the server logs: a limiter fallback explains a window over its limit, a 500 its cause.
  const fallbacks: string[] = [];
  let unhandled = 0;
  let pending = "";
  const scan = (chunk: Buffer) => {
    const lines = (pending + chunk.toString()).split("\n");
    pending = lines.pop() ?? "";
    for (const line of lines) {
      if (/\[ratelimit\] \w+ store unavailable/.test(line)) fallbacks.push(line.trim());
      if (line.includes("unhandled error")) unhandled++;
    }
  };
  server.child.stdout!.on("data", scan);
  server.child.stderr!.on("data", scan);
  log(`server pid ${pid} on ${server.url}; ${seeded.length} keys, ${opportunities.length} opportunities`);

  // Rates: each key at its plan's limit; the hot ones at 1.5×. Few of them, and mostly Pro: they are
  // never slowed down, so on a machine that answers far less than the sum of the limits they must
  // stay a small part of the load (one hot Desk key alone sends 25 req/s).
  const hot = new Set<number>();
  for (let h = 0; h < options.hot; h++) {
    const tier: Tier = h % 5 === 4 ? "desk" : "pro";
    const index = seeded.findIndex((k, i) => k.tier === tier && !hot.has(i) && i % 7 === h % 7);
    if (index >= 0) hot.add(index);
  }
  const keys: SoakKey[] = seeded.map((k, i) => ({ ...k, rate: (requestsPerMinute(k.tier) / 60) * (hot.has(i) ? 1.5 : 1) }));
  const sumOfLimits = seeded.reduce((n, k) => n + requestsPerMinute(k.tier) / 60, 0);
  const offered = keys.reduce((n, k) => n + k.rate, 0);
  const hotRate = [...hot].reduce((n, i) => n + keys[i]!.rate, 0);
  let drivenAt = offered;
  let calibrationNote = "the machine answered the full rate";
  if (options.rate !== undefined && options.rate < offered) {
    const factor = Math.max(0, (options.rate - hotRate) / (offered - hotRate));
    keys.forEach((k, i) => !hot.has(i) && (k.rate *= factor));
    drivenAt = options.rate;
    calibrationNote = `--rate=${options.rate}`;
  }
  log(`sum of the limits ${fmt(sumOfLimits)} req/s; offered ${fmt(drivenAt)} req/s (${hot.size} hot keys at 1.5× their limit: ${fmt(hotRate)} req/s)`);

  // Memory and health every 10 s.
  const samples: { at: number; rss: number; degraded: boolean | undefined; healthStatus: number }[] = [];
  const sample = async () => {
    const health = await readHealth(server!.url);
    const degraded = health.json?.rate_limiter?.degraded;
    samples.push({ at: Date.now(), rss: rssOf(pid), degraded, healthStatus: health.status });
  };
  await sample();
  const sampler = setInterval(() => void sample(), SAMPLE_MS);

  const durationMs = options.minutes * 60_000;
  let backoffs = 0;
  const cpuBefore = { server: cpuSecondsOf(pid), client: process.cpuUsage() };
  const traffic = await runTraffic({
    baseUrl: server.url,
    keys,
    opportunityIds: opportunities.map((o) => o.id),
    symbols,
    durationMs,
    maxInFlight: options.maxInFlight,
    timeoutMs: 10_000,
    fixed: hot,
    onBackoff: (scale) => {
      backoffs++;
      log(`the server fell behind (in-flight cap hit): other keys cut to ${fmt(scale * 100, 1)} % of their calibrated rate`);
    },
    ...(options.rate === undefined && {
      calibrate: {
        afterMs: Math.min(CALIBRATE_MS, durationMs / 4),
        decide: (answeredPerS) => {
          if (answeredPerS >= 0.95 * offered) return 1;
          // Answering at capacity means queueing: 75 % of it keeps latency meaningful.
          const target = 0.75 * answeredPerS;
          const factor = Math.max(0, (target - hotRate) / (offered - hotRate));
          drivenAt = target;
          calibrationNote = `the machine answered ${fmt(answeredPerS)} req/s of the ${fmt(offered)} offered in the first ${fmt(Math.min(CALIBRATE_MS, durationMs / 4) / 1000)} s; continued at 75 % of that`;
          log(`${calibrationNote}: ${fmt(target)} req/s (every key at ${fmt(factor * 100, 1)} % of its limit, the hot keys still at 150 %)`);
          return factor;
        },
      },
    }),
  });
  clearInterval(sampler);
  const clientCpu = process.cpuUsage(cpuBefore.client);
  const cpu = { server: cpuSecondsOf(pid) - cpuBefore.server, client: (clientCpu.user + clientCpu.system) / 1e6 };
  await sample();

  // Limits per key and tier.
  const limits = Object.fromEntries(TIERS.map((tier) => [tier, requestsPerMinute(tier)])) as Record<Tier, number>;
  const perTier = new Map<string, { keys: number; maxInWindow: number; maxInSpan: number; over: number; limit: number }>();
  for (const [i, k] of keys.entries()) {
    const group = `${k.tier}${hot.has(i) ? " (hot, 1.5×)" : ""}`;
    const stats = traffic.windows.stats(i);
    const row = perTier.get(group) ?? { keys: 0, maxInWindow: 0, maxInSpan: 0, over: 0, limit: limits[k.tier] };
    row.keys++;
    row.maxInWindow = Math.max(row.maxInWindow, stats.maxInWindow);
    row.maxInSpan = Math.max(row.maxInSpan, stats.maxInSpan);
    if (stats.maxInWindow > row.limit) row.over++;
    perTier.set(group, row);
  }

  const seconds = traffic.durationMs / 1000;
  const baseRate = keys.reduce((n, k, i) => n + (hot.has(i) ? 0 : k.rate), 0);
  const finalRate = baseRate * traffic.finalScale + hotRate;
  const ok2xx = [...traffic.statuses].filter(([s]) => /^2\d\d$/.test(s)).reduce((n, [, c]) => n + c, 0);
  const limited = traffic.statuses.get("429") ?? 0;
  const other = traffic.answered - ok2xx - limited;
  const rssStart = samples[0]!.rss;
  const rssEnd = samples.at(-1)!.rss;
  const rssMax = Math.max(...samples.map((s) => s.rss));
  // Flat: RSS is a sawtooth under V8 (the heap grows until a major collection, whose timing and the
  // heap's growth steps decide the peaks), so peaks compare luck; what a leak raises is the floor,
  // the memory still held right after collections. The last third's lowest sample must not be more
  // than 10 % (or 32 MB) above the middle third's. Peaks are printed too.
  const third = Math.max(1, Math.floor(samples.length / 3));
  const middle = samples.slice(third, 2 * third).map((s) => s.rss);
  const last = samples.slice(2 * third).map((s) => s.rss);
  const [middlePeak, lastPeak] = [Math.max(...middle), Math.max(...last)];
  const [middleFloor, lastFloor] = [Math.min(...middle), Math.min(...last)];
  const growth = lastFloor - middleFloor;
  const memoryFlat = growth <= Math.max(0.1 * middleFloor, 32 * 1_048_576);
  const degradedSamples = samples.filter((s) => s.degraded).length;
  const positions = await database.db.position.count();

  const ofTier = (tier: Tier) => keys.filter((k) => k.tier === tier).length;
  console.log(`\nsoak: ${keys.length} keys (${ofTier("free")} Free, ${ofTier("pro")} Pro, ${ofTier("desk")} Desk), ${fmt(seconds)} s, one server process on PostgreSQL + Redis`);
  console.log(`  sum of the limits      ${fmt(sumOfLimits).padStart(8)} req/s`);
  console.log(`  driven at              ${fmt(drivenAt).padStart(8)} req/s   (${calibrationNote})`);
  if (backoffs) console.log(`  backed off             ${fmt(finalRate).padStart(8)} req/s   at the end, after ${backoffs} cut(s) by a fifth when the server fell behind`);
  console.log(`  answered               ${fmt(traffic.answered / seconds).padStart(8)} req/s   ${traffic.answered} answers of ${traffic.sent} sent (${traffic.retried} resent after a keep-alive reset); in-flight cap (${options.maxInFlight}) reached ${traffic.atCap} times`);
  console.log(`  CPU                    server ${fmt((100 * cpu.server) / seconds)} %, load generator ${fmt((100 * cpu.client) / seconds)} % of one core (${os.cpus().length} cores, load average ${os.loadavg()[0]!.toFixed(2)})`);
  console.log(`  latency                p50 ${fmt(percentile(traffic.latencies, 50), 1)} ms, p99 ${fmt(percentile(traffic.latencies, 99), 1)} ms, max ${fmt(percentile(traffic.latencies, 100), 0)} ms (after calibration)`);
  console.log(`\n  ${"status".padEnd(28)} ${"count".padStart(9)}`);
  for (const [status, n] of [...traffic.statuses].sort()) console.log(`  ${status.padEnd(28)} ${String(n).padStart(9)}`);
  for (const [status, routes] of traffic.unexpected) {
    for (const [route, n] of [...routes].slice(0, 5)) console.log(`    ${status} ×${n}: ${route}`);
  }
  console.log(`\n  ${"route".padEnd(36)} ${"sent".padStart(9)} ${"p50 ms".padStart(8)} ${"p99 ms".padStart(8)}`);
  for (const [route, n] of [...traffic.byRoute].sort((a, b) => b[1] - a[1])) {
    const own = traffic.latencyByRoute.get(route) ?? new Float64Array();
    console.log(`  ${route.padEnd(36)} ${String(n).padStart(9)} ${fmt(percentile(own, 50), 1).padStart(8)} ${fmt(percentile(own, 99), 1).padStart(8)}`);
  }
  console.log(`\n  ${"keys".padEnd(20)} ${"n".padStart(5)} ${"limit/min".padStart(10)} ${"max 2xx in a window".padStart(20)} ${"keys over".padStart(10)} ${"max in any 60 s (client clock)".padStart(31)}`);
  for (const [group, row] of [...perTier].sort()) {
    console.log(`  ${group.padEnd(20)} ${String(row.keys).padStart(5)} ${String(row.limit).padStart(10)} ${String(row.maxInWindow).padStart(20)} ${String(row.over).padStart(10)} ${String(row.maxInSpan).padStart(31)}`);
  }
  console.log(`\n  server RSS: start ${mb(rssStart)}, end ${mb(rssEnd)}, max ${mb(rssMax)}; middle third ${mb(middleFloor)}–${mb(middlePeak)}, last third ${mb(lastFloor)}–${mb(lastPeak)} (lowest–highest; ${samples.length} samples, every 10 s)`);
  console.log(`  RSS samples (MB): ${samples.map((s) => fmt(s.rss / 1_048_576)).join(" ")}`);
  console.log(`  /healthz: limiter degraded in ${degradedSamples} of ${samples.length} samples; non-200 health answers ${samples.filter((s) => s.healthStatus !== 200).length}`);
  console.log(`  positions in the database at the end: ${positions}`);
  console.log(`  server log: ${fallbacks.length} rate-limiter fallbacks to memory${fallbacks.length ? ` (first: ${fallbacks[0]})` : ""}, ${unhandled} unhandled errors`);

  const checks = [
    { what: "only 2xx and 429 answers", ok: other === 0, detail: `${ok2xx} 2xx, ${limited} 429, ${other} other` },
    { what: "no key above its limit in any limiter window", ok: [...perTier.values()].every((r) => r.over === 0), detail: [...perTier].map(([g, r]) => `${g} max ${r.maxInWindow}/${r.limit}`).join(", ") },
    { what: "server memory flat (last third's lowest RSS vs the middle third's)", ok: memoryFlat, detail: `${growth >= 0 ? "+" : ""}${mb(growth)}: ${mb(middleFloor)} → ${mb(lastFloor)}` },
  ];
  console.log("");
  for (const c of checks) console.log(`  ${c.ok ? "PASS" : "FAIL"}  ${c.what} (${c.detail})`);
  log(`done in ${fmt((Date.now() - begun) / 1000)} s`);
  return checks.every((c) => c.ok);
}

runMain("soak", main, cleanup, () => {
  if (server) console.error(server.output().slice(-3_000));
});
