// `npm run bench`: GET /v1/opportunities?limit=50 on the production server (embedded PGlite,
// generated data) against a bare node:http server sending the same bytes, alternating runs so drift
// hits both alike, in three scenarios, each against its own bare server in the same run:
//   plain        the request as today: the whole body, uncompressed;
//   gzip         with Accept-Encoding: gzip, the service's precompressed body (the bare server
//                replays those compressed bytes);
//   conditional  with If-None-Match: <the page's ETag>, every answer a 304 without a body (the bare
//                server replays the 304).
// Prints req/s, p50/p99 and the service/bare ratio per scenario; `--profile` adds a CPU profile of
// one more service run (of `--profile-scenario`, default plain) and says which functions the time
// goes to.
//
//   node scripts/ensure-build.mjs && node --import tsx scripts/bench/run.ts [--profile]
//     [--duration=10] [--rounds=2] [--connections=50] [--warmup=3] [--profile-out=<file.cpuprofile>]
//     [--scenarios=plain,gzip,conditional] [--profile-scenario=plain]
//     [--rate=<req/s>]  (adds a bare and a service run of the plain scenario at that fixed offered load: latency below saturation)
// The shortest complete run: --duration=1 --rounds=1 --warmup=1.
import type { ChildProcess } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { gunzipSync } from "node:zlib";
import type { RecordedResponse } from "./bare-server";
import { runLoad, type LoadResult } from "./load";
import { freePort } from "@/tests/support/free-port";
import { onOutputLines, runMain, runToCompletion, scratchRun, startChild, stopChild, waitForHttp } from "./processes";
import { summariseProfile, type Row } from "./profile-summary";
import type { SeededKey } from "./seed";

const KEYS = 200;
const OPPORTUNITIES = 2_000;
const PATH = "/v1/opportunities?limit=50";

/** What one scenario sends, what every answer must be, and the target its ratio is held to. */
interface Scenario {
  name: "plain" | "gzip" | "conditional";
  /** Request headers besides Authorization and Accept; the conditional one's ETag is filled in once known. */
  headers: Record<string, string>;
  expectStatus?: number;
  target?: { ratio: number; p99Ms?: number };
  /**
   * Also measure scripts/bench/contract-minimum-server.ts: the ceiling of the work the contract
   * requires of this answer (key check, limit, headers), for a target the bare server puts out of reach.
   */
  minimum?: boolean;
}

const SCENARIOS: Scenario[] = [
  { name: "plain", headers: {}, target: { ratio: 0.5, p99Ms: 20 } },
  { name: "gzip", headers: { "accept-encoding": "gzip" } },
  { name: "conditional", headers: {}, expectStatus: 304, target: { ratio: 0.8 }, minimum: true },
];

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const HERE = path.join(ROOT, "scripts/bench");

function flag(name: string): boolean {
  return process.argv.includes(`--${name}`);
}
function numberOption(name: string, fallback: number): number {
  const arg = process.argv.find((a) => a.startsWith(`--${name}=`));
  const value = arg ? Number(arg.slice(name.length + 3)) : fallback;
  if (!Number.isFinite(value) || value <= 0) throw new Error(`--${name} must be a positive number`);
  return value;
}

function listOption(name: string, fallback: string[]): string[] {
  const arg = process.argv.find((a) => a.startsWith(`--${name}=`));
  return arg ? arg.slice(name.length + 3).split(",").filter(Boolean) : fallback;
}

const scenarioNames = SCENARIOS.map((s) => s.name as string);
const options = {
  profile: flag("profile"),
  scenarios: listOption("scenarios", scenarioNames),
  profileScenario: listOption("profile-scenario", ["plain"])[0]!,
  durationS: numberOption("duration", 10),
  rounds: Math.round(numberOption("rounds", 2)),
  connections: Math.round(numberOption("connections", 50)),
  warmupS: numberOption("warmup", 3),
  rate: process.argv.some((a) => a.startsWith("--rate=")) ? numberOption("rate", 1) : undefined,
  /** Where to keep the raw profile (for Chrome DevTools / speedscope); it is deleted otherwise. */
  profileOut: process.argv.find((a) => a.startsWith("--profile-out="))?.slice("--profile-out=".length),
};
for (const name of [...options.scenarios, options.profileScenario]) {
  if (!scenarioNames.includes(name)) throw new Error(`unknown scenario "${name}": use ${scenarioNames.join(", ")}`);
}
const scenarios = SCENARIOS.filter((s) => options.scenarios.includes(s.name));

const { dir: tmp, cleanup } = scratchRun("fods-bench-", "benchmark");
const dataDir = path.join(tmp, "data");
const profileDir = path.join(tmp, "cpu-profile");

function log(message: string) {
  console.log(`[bench] ${message}`);
}

/** Forwards a child's output line by line with a prefix, so server errors are seen in the run. */
function prefixOutput(child: ChildProcess, prefix: string) {
  onOutputLines(child, (line) => console.log(`${prefix} ${line}`));
}

function serverEnv(port: number): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: "production",
    PORT: String(port),
    HOST: "127.0.0.1",
    DATA_DIR: dataDir,
    RATE_LIMIT_SCALE: "1000",
    NEXT_TELEMETRY_DISABLED: "1",
    // The benchmark serves the opportunities it seeded; a round would replace them mid-run.
    INGEST_DISABLED: "1",
  };
  // The embedded default: no shared database, Redis or Upstash even if the shell has them.
  for (const name of ["DATABASE_URL", "REDIS_URL", "UPSTASH_REDIS_REST_URL", "UPSTASH_REDIS_REST_TOKEN"]) delete env[name];
  return env;
}

async function startServer(profile: boolean): Promise<{ child: ChildProcess; url: string }> {
  const port = await freePort();
  const profileArgs = profile ? ["--cpu-prof", "--cpu-prof-dir", profileDir, "--cpu-prof-interval", "500"] : [];
  const started = Date.now();
  const child = startChild(process.execPath, [...profileArgs, "--import", "tsx", "server.ts"], {
    cwd: ROOT,
    env: serverEnv(port),
    stdio: ["ignore", "pipe", "pipe"],
  });
  prefixOutput(child, "[server]");
  const url = `http://127.0.0.1:${port}`;
  await waitForHttp(`${url}/healthz`, child, 90_000);
  log(`server up on ${url} in ${((Date.now() - started) / 1000).toFixed(1)} s${profile ? " (with --cpu-prof)" : ""}`);
  return { child, url };
}

/** A baseline server script of this folder (bare-server.ts, contract-minimum-server.ts), which reports its port over IPC. */
async function startBaseline(script: string, args: string[]): Promise<{ child: ChildProcess; url: string }> {
  const child = startChild(process.execPath, ["--import", "tsx", path.join(HERE, script), ...args], {
    cwd: ROOT,
    env: { ...process.env, RATE_LIMIT_SCALE: "1000" },
    stdio: ["ignore", "inherit", "inherit", "ipc"],
  });
  const port = await new Promise<number>((resolve, reject) => {
    child.once("message", (message) => resolve((message as { port: number }).port));
    child.once("exit", (code) => reject(new Error(`${script} exited (${code}) before listening`)));
  });
  return { child, url: `http://127.0.0.1:${port}` };
}

/** One real response, raw: its status, header pairs in wire order, and body bytes (still compressed if it was). */
function fetchRaw(url: string, authorization: string, headers: Record<string, string> = {}): Promise<{ status: number; rawHeaders: string[]; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const request = http.get(url, { headers: { authorization, accept: "application/json", ...headers } }, (response) => {
      const chunks: Buffer[] = [];
      response.on("data", (chunk: Buffer) => chunks.push(chunk));
      response.on("end", () => resolve({ status: response.statusCode ?? 0, rawHeaders: response.rawHeaders, body: Buffer.concat(chunks) }));
      response.on("error", reject);
    });
    request.on("error", reject);
  });
}

/** A header of a raw response, by name in any case. */
function headerOf(rawHeaders: string[], name: string): string | undefined {
  for (let i = 0; i < rawHeaders.length; i += 2) if (rawHeaders[i]!.toLowerCase() === name) return rawHeaders[i + 1];
  return undefined;
}

/**
 * Records the response a scenario's baseline replays, after checking it is what the scenario
 * measures: a full page of live data (gzip-compressed for `gzip`), or a bodiless 304 naming the
 * page's ETag for `conditional`. Returns the response's ETag.
 */
async function recordResponse(serviceUrl: string, authorization: string, scenario: Scenario, file: string): Promise<string | undefined> {
  const { status, rawHeaders, body } = await fetchRaw(`${serviceUrl}${PATH}`, authorization, scenario.headers);
  const encoding = headerOf(rawHeaders, "content-encoding");
  const etag = headerOf(rawHeaders, "etag");
  const unexpected = (why: string) => new Error(`unexpected service response for ${scenario.name} (${status}, ${why}): ${body.toString("utf8").slice(0, 300)}`);
  if (scenario.expectStatus === 304) {
    if (status !== 304 || body.length !== 0 || etag !== scenario.headers["if-none-match"]) throw unexpected("expected a bodiless 304 with the page's ETag");
  } else {
    if (status !== 200) throw unexpected("expected 200");
    const wanted = scenario.headers["accept-encoding"] === "gzip" ? "gzip" : undefined;
    if (encoding !== wanted) throw unexpected(`Content-Encoding ${encoding ?? "none"}, expected ${wanted ?? "none"}`);
    const text = (encoding === "gzip" ? gunzipSync(body) : body).toString("utf8");
    const parsed = JSON.parse(text) as { data?: { items?: unknown[]; total?: number }; meta?: { mode?: string } };
    if (parsed.data?.items?.length !== 50 || parsed.data.total !== OPPORTUNITIES || parsed.meta?.mode !== "live") throw unexpected("expected a full page of live data");
  }
  const skip = new Set(["date", "connection", "keep-alive", "transfer-encoding"]);
  const headers: [string, string][] = [];
  for (let i = 0; i < rawHeaders.length; i += 2) {
    const name = rawHeaders[i]!;
    if (!skip.has(name.toLowerCase())) headers.push([name, rawHeaders[i + 1]!]);
  }
  const chunked = headerOf(rawHeaders, "transfer-encoding") !== undefined;
  const recorded: RecordedResponse = { status, headers, bodyBase64: body.toString("base64") };
  writeFileSync(file, JSON.stringify(recorded));
  log(
    `${scenario.name}: recorded a real ${status}: ${body.length} body bytes${encoding ? ` (${encoding})` : ""}, ` +
      `headers ${headers.map(([n]) => n).join(", ")}${chunked ? " (service sent it chunked)" : ""}`,
  );
  return etag;
}

/**
 * One request per key, a few at a time, before any measured run: every key must answer 200 (a
 * benchmark of 401s or 429s is worthless) and sits in the verifier's cache afterwards.
 */
async function primeKeys(serviceUrl: string, authorizations: string[]): Promise<number> {
  const started = performance.now();
  let next = 0;
  const worker = async () => {
    while (next < authorizations.length) {
      const authorization = authorizations[next++]!;
      const response = await fetch(`${serviceUrl}${PATH}`, { headers: { authorization } });
      await response.arrayBuffer();
      if (response.status !== 200) throw new Error(`key ${authorization.slice(0, 30)}… answered ${response.status}`);
    }
  };
  await Promise.all(Array.from({ length: 8 }, worker));
  return performance.now() - started;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

interface Run {
  scenario: Scenario["name"];
  target: "bare" | "minimum" | "service";
  round: number;
  result: LoadResult;
}

const fmt = (n: number, digits = 1) => (Number.isFinite(n) ? n.toFixed(digits) : "n/a");

function runLine(run: Run): string {
  const r = run.result;
  const codes = Object.entries(r.statusCodes)
    .map(([code, count]) => `${code}:${count}`)
    .join(" ");
  return [
    run.scenario.padEnd(11),
    run.target.padEnd(8),
    String(run.round).padStart(5),
    fmt(r.reqPerSec, 0).padStart(9),
    fmt(r.p50, 2).padStart(8),
    fmt(r.p99, 2).padStart(8),
    fmt(r.max, 1).padStart(8),
    String(r.unexpected).padStart(7),
    String(r.errors + r.timeouts).padStart(7),
    fmt(r.bytesPerResponse, 0).padStart(8),
    `  ${codes}`,
  ].join(" ");
}

// `other`: answers with another status than the scenario's (200, or 304 for conditional).
const HEADER = `${"scenario".padEnd(11)} ${"target".padEnd(8)} ${"round".padStart(5)} ${"req/s".padStart(9)} ${"p50 ms".padStart(8)} ${"p99 ms".padStart(8)} ${"max ms".padStart(8)} ${"other".padStart(7)} ${"errors".padStart(7)} ${"B/resp".padStart(8)}   status codes`;

function printRows(title: string, rows: Row[], requests: number) {
  console.log(`\n${title}\n      %       ms  µs/req`);
  for (const row of rows) {
    const perRequest = (row.ms * 1000) / requests;
    console.log(`  ${fmt(row.pct, 1).padStart(5)} %  ${fmt(row.ms, 0).padStart(6)}  ${fmt(perRequest, 1).padStart(6)}  ${row.name}`);
  }
}

async function main() {
  if (!existsSync(path.join(ROOT, ".next/BUILD_ID"))) throw new Error("no production build: run `node scripts/ensure-build.mjs` first");
  const begun = Date.now();
  log(
    `node ${process.version}, ${os.cpus().length} CPUs, load average ${os.loadavg().map((l) => l.toFixed(2)).join(" ")}; ` +
      `${options.connections} connections, ${options.durationS} s per run, ${options.rounds} rounds${options.profile ? ", --profile" : ""}`,
  );

  // 1. Data: migrate, seed and close the embedded database in a child process.
  const keysFile = path.join(tmp, "keys.json");
  await runToCompletion(process.execPath, ["--import", "tsx", path.join(HERE, "seed.ts"), dataDir, keysFile, String(KEYS), String(OPPORTUNITIES)], { cwd: ROOT });
  const keys = JSON.parse(readFileSync(keysFile, "utf8")) as SeededKey[];
  const authorizations = keys.map((k) => `Bearer ${k.secret}`);

  // 2. The production server on that data, and per scenario a baseline replaying one of its responses.
  let server = await startServer(false);
  const bares = new Map<Scenario["name"], { url: string }>();
  const minimums = new Map<Scenario["name"], { url: string }>();
  let etag: string | undefined;
  for (const scenario of SCENARIOS) {
    // The conditional scenario sends the plain page's ETag, so the plain page is always recorded first.
    if (scenario.name === "conditional") {
      if (!etag) throw new Error("the plain page carried no ETag");
      scenario.headers = { "if-none-match": etag };
    }
    const responseFile = path.join(tmp, `response-${scenario.name}.json`);
    const recordedTag = await recordResponse(server.url, authorizations[0]!, scenario, responseFile);
    if (scenario.name === "plain") etag = recordedTag;
    if (!scenarios.includes(scenario)) continue;
    bares.set(scenario.name, await startBaseline("bare-server.ts", [responseFile]));
    if (scenario.minimum) minimums.set(scenario.name, await startBaseline("contract-minimum-server.ts", [keysFile, responseFile]));
  }

  const load = (url: string, durationS: number, scenario: Scenario) =>
    runLoad({ url, path: PATH, connections: options.connections, durationS, authorizations, headers: scenario.headers, expectStatus: scenario.expectStatus });

  // 3. Warm-up: every key verified once (and so cached), then JIT, the snapshot's sort orders and
  // the cached page in every encoding measured.
  const primeMs = await primeKeys(server.url, authorizations);
  log(`all ${authorizations.length} keys answered 200 (first use of each, cold verification: ${(primeMs / 1000).toFixed(2)} s)`);
  for (const scenario of scenarios) {
    const warm = await load(server.url, options.warmupS, scenario);
    await load(bares.get(scenario.name)!.url, Math.min(2, options.warmupS), scenario);
    const minimum = minimums.get(scenario.name);
    if (minimum) await load(minimum.url, Math.min(2, options.warmupS), scenario);
    log(`warm-up ${scenario.name}: service ${fmt(warm.reqPerSec, 0)} req/s, ${warm.unexpected} other answers`);
  }

  // 4. Alternating measured runs: in each round, each scenario's bare server (and contract minimum), then the service.
  const runs: Run[] = [];
  console.log(`\n${HEADER}`);
  for (let round = 1; round <= options.rounds; round++) {
    for (const scenario of scenarios) {
      const urls = { bare: bares.get(scenario.name)?.url, minimum: minimums.get(scenario.name)?.url, service: server.url };
      for (const target of ["bare", "minimum", "service"] as const) {
        const url = urls[target];
        if (!url) continue;
        const result = await load(url, options.durationS, scenario);
        const run = { scenario: scenario.name, target, round, result };
        runs.push(run);
        console.log(runLine(run));
      }
    }
  }

  const summary = (results: LoadResult[]) => ({
    rps: median(results.map((r) => r.reqPerSec)),
    p50: median(results.map((r) => r.p50)),
    p99: median(results.map((r) => r.p99)),
    worstP99: Math.max(...results.map((r) => r.p99)),
  });
  let valid = true;
  for (const scenario of scenarios) {
    const of = (target: Run["target"]) => runs.filter((r) => r.scenario === scenario.name && r.target === target).map((r) => r.result);
    const [bareRuns, serviceRuns] = [of("bare"), of("service")];
    const b = summary(bareRuns);
    const s = summary(serviceRuns);
    const ratio = s.rps / b.rps;
    const perRound = serviceRuns.map((r, i) => r.reqPerSec / bareRuns[i]!.reqPerSec);
    const serviceOther = serviceRuns.reduce((n, r) => n + r.unexpected, 0);
    const serviceErrors = serviceRuns.reduce((n, r) => n + r.errors + r.timeouts, 0);
    const expected = scenario.expectStatus ?? 200;

    console.log(`\n${scenario.name}: medians over ${options.rounds} rounds`);
    console.log(`  bare     ${fmt(b.rps, 0).padStart(7)} req/s   p50 ${fmt(b.p50, 2)} ms   p99 ${fmt(b.p99, 2)} ms`);
    console.log(`  service  ${fmt(s.rps, 0).padStart(7)} req/s   p50 ${fmt(s.p50, 2)} ms   p99 ${fmt(s.p99, 2)} ms (worst run ${fmt(s.worstP99, 2)} ms)`);
    console.log(`  ratio service/bare ${fmt(ratio, 3)} (per round: ${perRound.map((r) => fmt(r, 3)).join(", ")})`);
    const minimumRuns = of("minimum");
    if (minimumRuns.length) {
      const m = summary(minimumRuns);
      console.log(`  contract minimum ${fmt(m.rps, 0)} req/s   p50 ${fmt(m.p50, 2)} ms   p99 ${fmt(m.p99, 2)} ms`);
      console.log(`  ratio minimum/bare ${fmt(m.rps / b.rps, 3)} (the ceiling the contract's own work allows); service/minimum ${fmt(s.rps / m.rps, 3)}`);
    }
    console.log(`  service answers other than ${expected}: ${serviceOther}, socket errors/timeouts ${serviceErrors}`);
    const scenarioValid = serviceOther === 0 && serviceErrors === 0;
    if (!scenarioValid) console.log(`  INVALID: the service answered something other than ${expected}; these figures measure errors, not the API`);
    valid &&= scenarioValid;
    if (scenario.target) {
      const { ratio: wanted, p99Ms } = scenario.target;
      const met = ratio >= wanted && (p99Ms === undefined || s.p99 <= p99Ms);
      console.log(`  target ratio ≥ ${wanted}${p99Ms === undefined ? "" : ` and p99 ≤ ${p99Ms} ms`}: ${scenarioValid && met ? "MET" : "NOT MET"}`);
    }
  }

  // 5. Optional: latency at a fixed offered load. At saturation, 50 closed-loop connections wait
  // ≈ 50 / throughput each (Little's law), so p99 there mostly restates req/s.
  const plain = SCENARIOS[0]!;
  if (options.rate && bares.has("plain")) {
    console.log(`\nfixed offered load: ${options.rate} req/s over ${options.connections} connections\n${HEADER}`);
    for (const target of ["bare", "service"] as const) {
      const result = await runLoad({
        url: target === "bare" ? bares.get("plain")!.url : server.url,
        path: PATH,
        connections: options.connections,
        durationS: options.durationS,
        authorizations,
        overallRate: options.rate,
      });
      console.log(runLine({ scenario: plain.name, target, round: 0, result }));
      if (target === "service" && result.unexpected + result.errors + result.timeouts > 0) {
        console.log("  INVALID: other answers than 200 or socket errors in the fixed-load service run");
        valid = false;
      }
    }
  }

  // 6. Optional CPU profile of one more service run, on a server started with --cpu-prof.
  if (options.profile) {
    await stopChild(server.child, "SIGINT");
    mkdirSync(profileDir, { recursive: true });
    server = await startServer(true);
    await primeKeys(server.url, authorizations);
    const profiledScenario = SCENARIOS.find((s) => s.name === options.profileScenario)!;
    // A new process builds the page again: prime its compressed form before the timed part.
    await fetchRaw(`${server.url}${PATH}`, authorizations[0]!, profiledScenario.headers);
    await load(server.url, Math.min(2, options.warmupS), profiledScenario);
    const from = process.hrtime.bigint() / 1000n;
    const profiled = await load(server.url, options.durationS, profiledScenario);
    const to = process.hrtime.bigint() / 1000n;
    console.log(`\nprofiled service run of ${profiledScenario.name} (profiler on, not comparable with the table)\n${HEADER}`);
    console.log(runLine({ scenario: profiledScenario.name, target: "service", round: 0, result: profiled }));
    await stopChild(server.child, "SIGINT", 30_000); // the profile is written as the process exits
    const file = readdirSync(profileDir).find((f) => f.endsWith(".cpuprofile"));
    if (!file) throw new Error(`no .cpuprofile in ${profileDir}`);
    if (options.profileOut) {
      copyFileSync(path.join(profileDir, file), options.profileOut);
      log(`raw profile kept in ${options.profileOut}`);
    }
    const result = summariseProfile(path.join(profileDir, file), { root: ROOT, windowUs: [Number(from), Number(to)], top: 15 });
    const scope = result.windowed ? "samples of the measured run only" : "WHOLE process lifetime: the run's window did not match the profile clock";
    console.log(`\nCPU profile: ${scope}; ${fmt(result.busyMs, 0)} ms busy of ${fmt(result.sampledMs, 0)} ms sampled (${fmt((100 * result.busyMs) / result.sampledMs, 0)} % of one core); % below are of busy time`);
    const served = profiled.requests;
    console.log(`CPU per request: ${fmt((result.busyMs * 1000) / served, 0)} µs busy over ${served} responses (profiler overhead included)`);
    printRows("Top self time by function", result.selfTop, served);
    printRows("Self time by area", result.areas, served);
    printRows("Inclusive time of project, Hono and zod frames", result.inclusiveTop, served);
  }

  log(`done in ${((Date.now() - begun) / 1000).toFixed(0)} s`);
  return valid;
}

runMain("bench", main, cleanup);
