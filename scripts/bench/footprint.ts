// `npm run bench:footprint`: what the embedded default costs a small machine. For ingestion off and
// on, the production server is started with `npm start`, first on a new data directory and then on
// the same directory once it holds the benchmark's data (scripts/bench/seed.ts: 200 keys, 2,000
// opportunities). Each start prints the time from `npm start` to the ready line and resident memory
// at ready, 20 s later (idle; with ingestion on, its first round has run), after a warm-up of every
// page and every /v1 route (footprint-warmup.ts), and, on the existing directory, during and after
// the benchmark's traffic (GET /v1/opportunities?limit=50 over 200 keys, as `npm run bench`), with
// the growth over that run. Where the memory goes is read from /proc (resident size, the WebAssembly
// memories) and from the server itself (its SIGUSR2 report: V8 heap, external memory).
// `--first-start` adds the time of a first `npm start` with no build, in a copy of the tree.
//
//   npm run bench:footprint -- [--minutes=10] [--ingest=off,on] [--connections=50] [--rate=<req/s>]
//     [--idle=20] [--first-start]
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { freePort } from "@/tests/support/free-port";
import { floorGrowth } from "./footprint-growth";
import { MB, readStatus } from "./footprint-proc";
import { startFootprintServer, type FootprintServer, type MemorySample } from "./footprint-server";
import { warmUp } from "./footprint-warmup";
import { runLoad } from "./load";
import { runToCompletion, scratchRun } from "./processes";
import type { SeededKey } from "./seed";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const KEYS = 200;
const OPPORTUNITIES = 2_000;
const TRAFFIC_PATH = "/v1/opportunities?limit=50";
const EMAIL = "footprint@bench.test";
const TARGETS = { readyMs: 3_000, rssOff: 300 * MB, rssOn: 400 * MB, growth: 0.1 };

function option(name: string): string | undefined {
  return process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
}
function numberOption(name: string, fallback: number): number {
  const value = Number(option(name) ?? fallback);
  if (!Number.isFinite(value) || value <= 0) throw new Error(`--${name} must be a positive number`);
  return value;
}

const options = {
  minutes: numberOption("minutes", 10),
  idleS: numberOption("idle", 20),
  connections: Math.round(numberOption("connections", 50)),
  rate: option("rate") === undefined ? undefined : numberOption("rate", 1),
  ingest: (option("ingest") ?? "off,on").split(",").map((v) => {
    if (v !== "off" && v !== "on") throw new Error("--ingest takes off, on or off,on");
    return v === "on";
  }),
  firstStart: process.argv.includes("--first-start"),
};

const { dir: tmp, cleanup } = scratchRun("fods-footprint-", "footprint benchmark");

const log = (message: string) => console.log(`[footprint] ${message}`);
const mb = (bytes: number | undefined) => (bytes === undefined ? "n/a" : `${(bytes / MB).toFixed(0)}`);
const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function serverEnv(port: number, dataDir: string, ingest: boolean): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: String(port),
    HOST: "127.0.0.1",
    PUBLIC_URL: `http://127.0.0.1:${port}`,
    DATA_DIR: dataDir,
    // As `npm run bench`: the traffic's 200 keys may each send far more than a plan's minute.
    RATE_LIMIT_SCALE: "1000",
    NEXT_TELEMETRY_DISABLED: "1",
  };
  // The embedded default, whatever the shell has: no PostgreSQL, Redis, Upstash or SMTP (the
  // verification mail must reach the log, where the warm-up reads its link), and npm as a user
  // runs it, not as the `npm run` this benchmark was started by.
  for (const name of ["DATABASE_URL", "REDIS_URL", "UPSTASH_REDIS_REST_URL", "UPSTASH_REDIS_REST_TOKEN", "SMTP_URL", "NODE_OPTIONS", "INGEST_DISABLED"]) delete env[name];
  for (const name of Object.keys(env)) if (name.startsWith("npm_")) delete env[name];
  if (!ingest) env.INGEST_DISABLED = "1";
  return env;
}

interface Point {
  label: string;
  sample: MemorySample;
}

interface StartResult {
  config: string;
  readyMs: number;
  built: boolean;
  points: Point[];
  traffic?: TrafficResult;
  warmUpStatuses: string;
}

async function start(cwd: string, dataDir: string, ingest: boolean, timeoutMs = 120_000): Promise<FootprintServer> {
  const port = await freePort();
  return startFootprintServer({ cwd, env: serverEnv(port, dataDir, ingest), port, timeoutMs });
}

function verificationLink(server: FootprintServer): () => Promise<string> {
  const from = server.lines.length;
  return async () => {
    const line = await server.waitForLine(/\/verify-email\?token=/, 15_000, from);
    // The mail is logged as JSON: the link ends where its string's text does.
    return line.match(/https?:\/\/[^\s"\\]+\/verify-email\?token=[^\s"\\]+/)![0];
  };
}

/** Ready, idle (with ingestion on, after its first round: ccxt loaded), warm-up: the part every start has. */
async function measureStart(config: string, server: FootprintServer, signUp: boolean, ingest: boolean): Promise<StartResult> {
  const points: Point[] = [{ label: "ready", sample: await server.sample() }];
  log(`${config}: ready in ${seconds(server.readyMs)}${server.built ? " (built first)" : ""}, RSS ${mb(points[0]!.sample.status.rss)} MB`);
  if (ingest) {
    // A round started less than 0.9 intervals ago (the previous start's) makes the first tick skip.
    const round = await server.waitForLine(/ingestion round \S+/, 150_000).catch(() => "none within 150 s");
    log(`${config}: first ingestion round: ${round.trim()}`);
  }
  await sleep(options.idleS * 1000);
  points.push({ label: ingest ? `idle, after a round` : `idle ${options.idleS} s`, sample: await server.sample() });
  const warm = await warmUp({ baseUrl: server.url, email: EMAIL, signUp, verificationLink: verificationLink(server) });
  points.push({ label: "warm-up", sample: await server.sample() });
  const statuses = [...warm.statuses].sort().map(([status, count]) => `${status}×${count}`).join(" ");
  log(`${config}: warm-up answered ${statuses}; RSS ${mb(points.at(-1)!.sample.status.rss)} MB`);
  return { config, readyMs: server.readyMs, built: server.built, points, warmUpStatuses: statuses };
}

interface TrafficResult {
  requests: number;
  non2xx: number;
  errors: number;
  reqPerSec: number;
  /** RSS through the run, evenly spaced. */
  samples: number[];
  /** RSS after the run against RSS before it (after the warm-up). */
  growth: number;
  /**
   * The lowest RSS of the run's last third against that of its first third. V8 lets its old space
   * fill up to a limit before a full collection, so RSS climbs and drops in a saw-tooth; a leak
   * shows as the troughs rising, wherever in the saw-tooth the run happens to end.
   */
  floorGrowth: number;
}

async function traffic(server: FootprintServer, keys: SeededKey[]): Promise<TrafficResult> {
  const samples: number[] = [];
  const durationS = Math.round(options.minutes * 60);
  const every = Math.min(30_000, Math.max(5_000, (durationS * 1000) / 20));
  const timer = setInterval(() => {
    try {
      samples.push(readStatus(server.pid).rss);
    } catch {
      // the server is gone; the load run reports it
    }
  }, every);
  log(`traffic: ${durationS} s of GET ${TRAFFIC_PATH} over ${keys.length} keys, ${options.connections} connections${options.rate ? ` at ${options.rate} req/s` : ""}`);
  const before = (await server.sample()).status.rss;
  const result = await runLoad({
    url: server.url,
    path: TRAFFIC_PATH,
    connections: options.connections,
    durationS,
    authorizations: keys.map((k) => `Bearer ${k.secret}`),
    ...(options.rate && { overallRate: options.rate }),
  });
  clearInterval(timer);
  const after = samples.at(-1) ?? before;
  return {
    requests: result.requests,
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
    reqPerSec: result.reqPerSec,
    samples,
    growth: (after - before) / before,
    floorGrowth: samples.length >= 3 ? floorGrowth(samples) : 0,
  };
}

async function configuration(ingest: boolean): Promise<StartResult[]> {
  const name = ingest ? "ingestion on" : "ingestion off";
  const dataDir = path.join(tmp, ingest ? "on" : "off", "data");
  mkdirSync(path.dirname(dataDir), { recursive: true });

  const fresh = await start(ROOT, dataDir, ingest);
  const freshResult = await measureStart(`${name}, new data directory`, fresh, true, ingest);
  await fresh.stop();

  // The benchmark's data in the same directory, and the warm-up's account an operator (for /admin).
  const keysFile = path.join(tmp, ingest ? "on" : "off", "keys.json");
  const childEnv: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir };
  delete childEnv.DATABASE_URL;
  await runToCompletion(process.execPath, ["--import", "tsx", "scripts/bench/seed.ts", dataDir, keysFile, String(KEYS), String(OPPORTUNITIES)], { cwd: ROOT, env: childEnv });
  await runToCompletion(process.execPath, ["--import", "tsx", "scripts/admin.ts", "grant", EMAIL], { cwd: ROOT, env: childEnv });
  const keys = JSON.parse(readFileSync(keysFile, "utf8")) as SeededKey[];

  const existing = await start(ROOT, dataDir, ingest);
  const existingResult = await measureStart(`${name}, existing data directory`, existing, false, ingest);
  existingResult.traffic = await traffic(existing, keys);
  existingResult.points.push({ label: `after ${options.minutes} min traffic`, sample: await existing.sample() });
  await existing.stop();
  return [freshResult, existingResult];
}

/** `npm start` in a copy of the tree without `.next`: the build, then the server. */
async function firstStart(): Promise<StartResult> {
  const copy = path.join(tmp, "first-start");
  mkdirSync(copy);
  const skip = new Set([".git", ".next", "node_modules", ".data", "test-results", "playwright-report", "e2e-artifacts"]);
  for (const entry of readdirSync(ROOT)) if (!skip.has(entry)) cpSync(path.join(ROOT, entry), path.join(copy, entry), { recursive: true });
  // Hard links: the same packages at no cost in time or disk; a build writes new files only.
  await runToCompletion("cp", ["-al", path.join(ROOT, "node_modules"), path.join(copy, "node_modules")], {});
  // What a fresh clone has not made yet either: the embedded database's template (lib/db/pglite-template.mjs).
  rmSync(path.join(copy, "node_modules", ".cache", "fods"), { recursive: true, force: true });
  const server = await start(copy, path.join(copy, ".data"), false, 900_000);
  const result: StartResult = { config: "first start (no build), ingestion off", readyMs: server.readyMs, built: server.built, points: [{ label: "ready", sample: await server.sample() }], warmUpStatuses: "" };
  await server.stop();
  return result;
}

function breakdown(sample: MemorySample): string {
  const parts = sample.parts;
  const database = sample.wasm[0];
  const otherWasm = sample.wasm.slice(1).reduce((sum, w) => sum + w.resident, 0);
  const v8 = parts ? `V8 heap ${mb(parts.heapTotal)} (used ${mb(parts.heapUsed)}, code ${mb(parts.codeSpace)})` : "V8 heap n/a";
  const external = parts ? `external ${mb(parts.external)} (ArrayBuffers ${mb(parts.arrayBuffers)})` : "external n/a";
  const wasm = database ? `database WASM ${mb(database.size)} (resident ${mb(database.resident)})${otherWasm ? ` + other WASM resident ${mb(otherWasm)}` : ""}` : "no WASM memory";
  const rest = parts && database ? sample.status.rss - parts.heapTotal - database.resident - otherWasm - parts.arrayBuffers : undefined;
  return `${v8}, ${external}, ${wasm}, rest (code, native, file-backed) ${mb(rest)}`;
}

function report(results: StartResult[]) {
  console.log("\nMemory in MB (RSS of the server process; npm start tree = PSS of npm, sh and the server)\n");
  console.log(`${"configuration".padEnd(48)} ${"ready in".padStart(9)}  ${"point".padEnd(22)} ${"RSS".padStart(5)} ${"peak".padStart(5)} ${"tree".padStart(5)}`);
  for (const result of results) {
    for (const [i, point] of result.points.entries()) {
      const head = i === 0 ? `${result.config.padEnd(48)} ${seconds(result.readyMs).padStart(9)}` : " ".repeat(59);
      const s = point.sample;
      console.log(`${head}  ${point.label.padEnd(22)} ${mb(s.status.rss).padStart(5)} ${mb(s.status.peakRss).padStart(5)} ${mb(s.treePss).padStart(5)}`);
    }
  }
  console.log("\nWhere it goes");
  for (const result of results) {
    console.log(`  ${result.config}`);
    for (const point of result.points) console.log(`    ${point.label.padEnd(22)} ${breakdown(point.sample)}`);
    if (result.warmUpStatuses) console.log(`    warm-up statuses: ${result.warmUpStatuses}`);
    const t = result.traffic;
    if (t) {
      console.log(`    traffic: ${t.requests} requests (${t.reqPerSec.toFixed(0)} 2xx/s), ${t.non2xx} non-2xx, ${t.errors} socket errors/timeouts`);
      console.log(`    RSS during traffic: ${t.samples.map((s) => mb(s)).join(" ")}`);
      console.log(`    growth over the run ${(100 * t.growth).toFixed(1)} % (peak ${mb(Math.max(...t.samples))} MB; troughs, last third against first: ${(100 * t.floorGrowth).toFixed(1)} %)`);
    }
  }

  console.log("\nTargets");
  for (const result of results) {
    if (result.built) {
      console.log(`  ${result.config}: ready in ${seconds(result.readyMs)} including the build`);
      continue;
    }
    const ingestOn = result.config.startsWith("ingestion on");
    const limit = ingestOn ? TARGETS.rssOn : TARGETS.rssOff;
    const ready = result.points[0]!.sample.status.rss;
    const checks = [`RSS at ready ${mb(ready)} MB < ${mb(limit)}: ${ready < limit ? "met" : "NOT MET"}`];
    if (result.config.includes("existing")) checks.unshift(`ready ${seconds(result.readyMs)} < 3 s: ${result.readyMs < TARGETS.readyMs ? "met" : "NOT MET"}`);
    if (result.traffic) {
      const { growth, floorGrowth: floor } = result.traffic;
      checks.push(`growth ${(100 * growth).toFixed(1)} % (troughs ${(100 * floor).toFixed(1)} %) ≤ 10 %: ${growth <= TARGETS.growth && floor <= TARGETS.growth ? "met" : "NOT MET"}`);
    }
    console.log(`  ${result.config}: ${checks.join("; ")}`);
  }
}

async function main() {
  if (!existsSync(path.join(ROOT, ".next/BUILD_ID"))) throw new Error("no production build: run `node scripts/ensure-build.mjs` first");
  log(`node ${process.version}, ${os.cpus().length} CPUs, ${mb(os.totalmem())} MB, load average ${os.loadavg().map((l) => l.toFixed(2)).join(" ")}`);
  const results: StartResult[] = [];
  for (const ingest of options.ingest) results.push(...(await configuration(ingest)));
  if (options.firstStart) results.push(await firstStart());
  report(results);
}

main()
  .then(cleanup)
  .catch(async (error) => {
    console.error("[footprint] failed:", error);
    await cleanup();
    process.exit(1);
  });
