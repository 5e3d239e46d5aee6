// What every fault scenario needs: a fresh database on the PostgreSQL server under test, accounts
// and keys seeded through the library, the production server started on it, and requests that
// always end (a request past its deadline is a finding, never a hang of the run).
import type { ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { Db } from "@/lib/db";
import { generateApiKey } from "@/lib/keys/generate";
import { keyModeToDb } from "@/lib/keys/mode";
import { PERMISSIONS, tierToDb, type Tier } from "@/lib/keys/permissions";
import { publish } from "@/lib/market/opportunities/store";
import type { Opportunity } from "@/lib/market/model/types";
import { benchOpportunities } from "@/scripts/bench/market-data";
import { startChild, stopChild, waitForHttp } from "@/scripts/bench/processes";
import { freePort } from "@/tests/support/free-port";

// Each scenario runs in a database of its own on the configured server.
import { createServerDatabase, type ServerDatabase } from "@/tests/support/server-database";

export { createServerDatabase, type ServerDatabase };

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");

export interface FaultEnv {
  /** The PostgreSQL server under test; each scenario gets its own database on it. */
  databaseUrl: string;
  redisUrl: string;
}

let accountCounter = 0;

/** One account of `tier` with one live key holding every permission; returns the key's secret. */
export async function seedKey(db: Db, tier: Tier, label = "faults"): Promise<{ userId: string; secret: string }> {
  const user = await db.user.create({
    data: { email: `${label}-${Date.now().toString(36)}-${++accountCounter}@faults.test`, passwordHash: "not-used", tier: tierToDb(tier) },
  });
  const generated = generateApiKey("live");
  await db.apiKey.create({
    data: {
      userId: user.id,
      name: `${label} key`,
      mode: keyModeToDb(generated.mode),
      prefix: generated.prefix,
      hash: generated.hash,
      permissions: [...PERMISSIONS],
    },
  });
  return { userId: user.id, secret: generated.key };
}

/** Publishes `count` generated opportunities as the live set, as a round would. */
export async function seedOpportunities(db: Db, count: number): Promise<Opportunity[]> {
  const items = benchOpportunities(count);
  await publish(db, items, { asOf: new Date(Math.min(...items.map((o) => Date.parse(o.updated_at)))), sample: false });
  return items;
}

/**
 * The servers started here show /healthz's details (limiter, database latency) to this token
 * (HEALTH_DETAILS_TOKEN); everyone else sees only the status.
 */
export const HEALTH_DETAILS_TOKEN = randomBytes(24).toString("base64url");

/** GET /healthz with the details token: HTTP status and the body. */
export async function readHealth(baseUrl: string, timeoutMs = 5_000): Promise<{ status: number; json: HealthBody | undefined }> {
  const answer = await request(`${baseUrl}/healthz`, { headers: { authorization: `Bearer ${HEALTH_DETAILS_TOKEN}` }, timeoutMs });
  return { status: answer.status, json: answer.json as HealthBody | undefined };
}

export interface HealthBody {
  status?: string;
  rate_limiter?: { store?: string; degraded?: boolean };
}

export interface RunningServer {
  child: ChildProcess;
  url: string;
  output: () => string;
  stop: () => Promise<void>;
}

/**
 * The production server (`server.ts`, NODE_ENV=production, the Next build) on `databaseUrl`, with
 * ingestion off (rounds belong to workers on PostgreSQL anyway) and the plans' real limits.
 */
export async function startServer(env: { databaseUrl: string; redisUrl?: string; extra?: Record<string, string>; nodeArgs?: string[] }): Promise<RunningServer> {
  const port = await freePort();
  const childEnv: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: "production",
    PORT: String(port),
    HOST: "127.0.0.1",
    DATABASE_URL: env.databaseUrl,
    NEXTAUTH_SECRET: "faults-and-soak-only-secret-0123456789abcdef",
    NEXT_TELEMETRY_DISABLED: "1",
    INGEST_DISABLED: "1",
    HEALTH_DETAILS_TOKEN,
    // A production server on PostgreSQL refuses demo billing unless told; these runs charge no one.
    BILLING_ALLOW_DEMO: "1",
    ...env.extra,
  };
  delete childEnv.RATE_LIMIT_SCALE;
  delete childEnv.UPSTASH_REDIS_REST_URL;
  delete childEnv.UPSTASH_REDIS_REST_TOKEN;
  if (env.redisUrl) childEnv.REDIS_URL = env.redisUrl;
  else delete childEnv.REDIS_URL;
  const child = startChild(process.execPath, [...(env.nodeArgs ?? []), "--import", "tsx", "server.ts"], { cwd: ROOT, env: childEnv, stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  const keep = (chunk: Buffer) => {
    output += chunk.toString();
    if (output.length > 200_000) output = output.slice(-100_000);
  };
  child.stdout!.on("data", keep);
  child.stderr!.on("data", keep);
  const url = `http://127.0.0.1:${port}`;
  try {
    await waitForHttp(`${url}/healthz`, child, 120_000);
  } catch (error) {
    await stopChild(child, "SIGKILL");
    throw new Error(`${(error as Error).message}\n${output.slice(-3_000)}`);
  }
  return { child, url, output: () => output, stop: () => stopChild(child, "SIGTERM", 10_000) };
}

export interface Answer {
  /** 0 when no answer came (connection error or deadline). */
  status: number;
  body: string;
  json: unknown;
  ms: number;
  error?: string;
}

/** One request with a deadline; never throws. `json` is undefined when the body is not JSON. */
export async function request(
  url: string,
  init: { method?: string; headers?: Record<string, string>; body?: unknown; timeoutMs?: number } = {},
): Promise<Answer> {
  const started = performance.now();
  try {
    const response = await fetch(url, {
      method: init.method ?? "GET",
      headers: { accept: "application/json", ...(init.body !== undefined && { "content-type": "application/json" }), ...init.headers },
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
      signal: AbortSignal.timeout(init.timeoutMs ?? 15_000),
    });
    const body = await response.text();
    let json: unknown;
    try {
      json = JSON.parse(body);
    } catch {
      json = undefined;
    }
    return { status: response.status, body, json, ms: performance.now() - started };
  } catch (error) {
    return { status: 0, body: "", json: undefined, ms: performance.now() - started, error: (error as Error).name === "TimeoutError" ? "timeout" : (error as Error).message };
  }
}

/** The API's error envelope: `{ error: { code, message, … } }`. */
export function isErrorEnvelope(json: unknown): boolean {
  const error = (json as { error?: { code?: unknown; message?: unknown } } | undefined)?.error;
  return typeof error?.code === "string" && typeof error.message === "string";
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls `condition` every `everyMs` until it holds or `timeoutMs` passes; returns whether it held. */
export async function waitUntil(condition: () => Promise<boolean>, timeoutMs: number, everyMs = 200): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await condition().catch(() => false)) return true;
    if (Date.now() > deadline) return false;
    await sleep(everyMs);
  }
}

/** What a scenario driving one Desk key gets: its own database with 30 published opportunities, the key, and a server on them. */
export interface DeskScenario {
  database: ServerDatabase;
  opportunities: Opportunity[];
  desk: { userId: string; secret: string };
  server: RunningServer;
}

/** Runs `scenario` in a DeskScenario, then stops the server and drops the database whatever happened. */
export async function withDeskServer(env: FaultEnv, scenario: (world: DeskScenario) => Promise<void>): Promise<void> {
  const database = await createServerDatabase(env.databaseUrl);
  let server: RunningServer | undefined;
  try {
    const opportunities = await seedOpportunities(database.db, 30);
    const desk = await seedKey(database.db, "desk");
    server = await startServer({ databaseUrl: database.url, redisUrl: env.redisUrl });
    await scenario({ database, opportunities, desk, server });
  } finally {
    await server?.stop();
    await database.close().catch((error) => console.error("dropping the scenario database failed", error));
  }
}
