// The API is one app mounted twice (docs/ARCHITECTURE.md): by server.ts, which hands /v1 to Hono directly
// (the e2e webServer at baseURL), and by Next's catch-all app/v1/[[...path]]/route.ts, which is
// what `next dev` and serverless hosts serve. Both must answer the same requests with the same
// status, the same relevant headers and byte-identical bodies, apart from meta.request_id and
// meta.timestamp, which differ on every answer anyway.
import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, test, type APIRequestContext } from "@playwright/test";
import { checksumFor } from "../lib/keys/format";
import { signInRequest, signUpRequest, uniqueEmail } from "./helpers/accounts";
import { freePort } from "../tests/support/free-port";
import { waitUntilHealthy } from "./helpers/server-process";

test.describe.configure({ mode: "serial" });

const RELEVANT_HEADERS = [
  "content-type",
  "cache-control",
  "allow",
  "retry-after",
  "x-ratelimit-limit",
  "x-ratelimit-remaining",
  "x-ratelimit-reset",
] as const;
const REQUEST_ID = /"request_id":"(req_[0-9A-Za-z]{24})"/g;
const TIMESTAMP = /"timestamp":"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z"/g;

interface Server {
  name: string;
  base: string;
  context: APIRequestContext;
  /** A Desk account's TEST-mode key, created through this server's account area. */
  key: string;
}

interface Answer {
  status: number;
  headers: Record<string, string | null>;
  /** The body with meta.request_id and meta.timestamp replaced by placeholders. */
  body: string;
}

let nextProcess: { child: ChildProcess; exited: Promise<number | null>; output: () => string } | undefined;
let nextDataDir: string | undefined;
const servers: Server[] = [];

async function startNext(port: number, dataDir: string) {
  let output = "";
  const child = spawn(process.execPath, [path.join("node_modules", "next", "dist", "bin", "next"), "start", "-p", String(port)], {
    env: {
      ...process.env,
      NODE_ENV: "production",
      PORT: String(port),
      DATA_DIR: dataDir,
      // Its own embedded database and in-memory limiter, like the webServer's.
      DATABASE_URL: "",
      REDIS_URL: "",
      // What server.ts would set up; a serverless host gets them from its configuration.
      NEXTAUTH_SECRET: randomBytes(32).toString("base64url"),
      NEXTAUTH_URL: `http://localhost:${port}`,
      AUTH_ATTEMPT_SCALE: "50",
      NEXT_TELEMETRY_DISABLED: "1",
      // A heartbeat a second, so the stream test sees one arrive through Next's server.
      STREAM_HEARTBEAT_MS: "1000",
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  child.stdout!.on("data", (chunk) => (output += chunk));
  child.stderr!.on("data", (chunk) => (output += chunk));
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  return { child, exited, output: () => output };
}

/** Signs up through the server, moves to Desk and creates a TEST-mode key with every permission. */
async function deskTestKey(context: APIRequestContext, base: string): Promise<string> {
  const email = uniqueEmail("parity");
  await signUpRequest(context, base, email);
  await signInRequest(context, email);
  const headers = { Origin: base };
  const plan = await context.post("/api/account/plan", { data: { tier: "desk" }, headers });
  expect(plan.status(), await plan.text()).toBe(200);
  const created = await context.post("/api/account/keys", {
    data: {
      name: "parity",
      mode: "test",
      permissions: ["opportunities:read", "simulations:read", "portfolio:read", "write"],
      expiry: { kind: "never" },
    },
    headers,
  });
  expect(created.status(), await created.text()).toBe(201);
  const { key } = (await created.json()).data as { key: string };
  expect(key).toMatch(/^svc_sk_test_[0-9A-Za-z]{38}$/);
  return key;
}

async function call(server: Server, method: string, url: string, authorization: string | undefined): Promise<Answer> {
  const response = await server.context.fetch(url, {
    method,
    headers: authorization === undefined ? {} : { Authorization: authorization },
    ...(method === "POST" && { data: { anything: true } }),
    maxRedirects: 0,
    failOnStatusCode: false,
  });
  // latin1 maps bytes one-to-one, so equal strings mean equal bytes.
  const raw = (await response.body()).toString("latin1");
  const headers = Object.fromEntries(RELEVANT_HEADERS.map((name) => [name, response.headers()[name] ?? null]));
  const where = `${server.name}: ${method} ${url} → ${response.status()} ${raw.slice(0, 300)}`;
  const requestId = response.headers()["x-request-id"];
  expect(requestId, `X-Request-Id: ${where}`).toMatch(/^req_[0-9A-Za-z]{24}$/);
  if (method !== "HEAD") {
    // Exactly one request id and one timestamp, in meta, so the normalisation hides nothing else.
    const ids = [...raw.matchAll(REQUEST_ID)].map((m) => m[1]);
    expect(ids, `one request_id, the header's: ${where}`).toEqual([requestId]);
    expect(raw.match(TIMESTAMP)?.length, `one meta.timestamp: ${where}`).toBe(1);
    expect(JSON.parse(raw).meta.request_id, where).toBe(requestId);
  }
  const body = raw.replace(REQUEST_ID, '"request_id":"<request_id>"').replace(TIMESTAMP, '"timestamp":"<timestamp>"');
  return { status: response.status(), headers, body };
}

/**
 * The same request to both servers, each with its own key when `keyed`. Sandbox data and the
 * rate-limit window both change on the minute, so a pair that straddled one is asked again.
 */
async function both(method: string, url: string, auth: { keyed: true } | { header: string | undefined }) {
  for (let attempt = 1; ; attempt++) {
    const minute = Math.floor(Date.now() / 60_000);
    const answers: Answer[] = [];
    for (const server of servers) {
      answers.push(await call(server, method, url, "keyed" in auth ? `Bearer ${server.key}` : auth.header));
    }
    if (Math.floor(Date.now() / 60_000) === minute || attempt === 2) return answers as [Answer, Answer];
  }
}

function expectSame([production, next]: [Answer, Answer], label: string) {
  expect(next.status, `${label}: status`).toBe(production.status);
  expect(next.headers, `${label}: headers`).toEqual(production.headers);
  expect(next.body, `${label}: body`).toBe(production.body);
}

test.beforeAll(async ({ playwright }, testInfo) => {
  testInfo.setTimeout(180_000);
  const baseURL = testInfo.project.use.baseURL!;
  const port = await freePort();
  nextDataDir = mkdtempSync(path.join(os.tmpdir(), "fods-parity-"));
  nextProcess = await startNext(port, nextDataDir);
  const nextBase = `http://localhost:${port}`;
  await Promise.race([
    waitUntilHealthy(port, 150_000),
    nextProcess.exited.then((code) => {
      throw new Error(`next start exited with ${code}:\n${nextProcess!.output()}`);
    }),
  ]);
  for (const [name, base] of [
    ["server.ts", baseURL],
    ["next start", nextBase],
  ] as const) {
    const context = await playwright.request.newContext({ baseURL: base });
    servers.push({ name, base, context, key: await deskTestKey(context, base) });
  }
});

test.afterAll(async () => {
  for (const server of servers) await server.context.dispose();
  if (nextProcess && nextProcess.child.exitCode === null) {
    nextProcess.child.kill("SIGTERM");
    const timer = setTimeout(() => nextProcess?.child.kill("SIGKILL"), 10_000);
    await nextProcess.exited;
    clearTimeout(timer);
  }
  if (nextDataDir) rmSync(nextDataDir, { recursive: true, force: true });
});

test("answers refused credentials, unknown paths and wrong methods identically", async () => {
  const body = "A".repeat(32);
  const wrongChecksum = checksumFor("test", body) === "000000" ? "000001" : "000000";
  const unknown = `svc_sk_test_${"B".repeat(32)}${checksumFor("test", "B".repeat(32))}`;
  const cases: [string, string, string | undefined][] = [
    ["GET", "/v1/opportunities", undefined],
    ["GET", "/v1/auth/verify", undefined],
    ["GET", "/v1/auth/verify", "Bearer svc_sk_test_short"],
    ["GET", "/v1/opportunities", "Basic dXNlcjpwYXNz"],
    ["GET", "/v1/opportunities", "Bearer "],
    ["GET", "/v1/auth/verify", `Bearer svc_sk_test_${body}${wrongChecksum}`],
    ["GET", "/v1/opportunities?limit=5", `Bearer svc_sk_test_${body}${wrongChecksum}`],
    ["GET", "/v1/auth/verify", `Bearer ${unknown}`],
    ["GET", "/v1/nope", undefined],
    ["GET", "/v1", undefined],
    ["DELETE", "/v1/opportunities", undefined],
    ["POST", "/v1/auth/verify", "Bearer svc_sk_test_short"],
  ];
  for (const [method, url, header] of cases) {
    const answers = await both(method, url, { header });
    expect(answers[0].status, `${method} ${url}`).toBe(401);
    expectSame(answers, `${method} ${url} with ${JSON.stringify(header)}`);
  }
});

test("answers a valid Desk test key identically: verify, unknown path, wrong method", async () => {
  const cases: [string, string, number][] = [
    ["GET", "/v1/auth/verify", 200],
    ["HEAD", "/v1/auth/verify", 200],
    ["GET", "/v1/auth/verify?unexpected=1", 400],
    ["GET", "/v1/nope", 404],
    ["GET", "/v1/opportunities/BTC", 404],
    ["GET", "/v1", 404],
    ["DELETE", "/v1/opportunities", 405],
    ["POST", "/v1/auth/verify", 405],
  ];
  for (const [method, url, status] of cases) {
    const answers = await both(method, url, { keyed: true });
    expect(answers[0].status, `${method} ${url}: ${answers[0].body}`).toBe(status);
    expectSame(answers, `${method} ${url}`);
  }
});

test("serves the same sandbox opportunities for the same queries", async () => {
  const queries = [
    "",
    "?limit=5",
    "?limit=3&offset=2",
    "?limit=100",
    "?offset=40&limit=7",
    "?exchange=okx",
    "?exchange=hyperliquid&limit=10",
    "?min_apr=10",
    "?min_apr=-5.5&sort=apr",
    "?sort=-net_apr&limit=20",
    "?sort=open_interest",
    "?symbol=btc",
    "?symbol=ETH&exchange=binance&min_apr=1&limit=2&offset=1&sort=-apr",
    "?limit=%31%30",
    "?offset=1000000",
  ];
  for (const query of queries) {
    const answers = await both("GET", `/v1/opportunities${query}`, { keyed: true });
    expect(answers[0].status, `${query}: ${answers[0].body.slice(0, 300)}`).toBe(200);
    expect(answers[0].headers["x-ratelimit-limit"]).toBe("1000");
    expectSame(answers, `GET /v1/opportunities${query}`);
  }
  // The sandbox is really there: a full page of generated opportunities with test-mode metadata.
  const [page] = await both("GET", "/v1/opportunities?limit=5", { keyed: true });
  const parsed = JSON.parse(page.body);
  expect(parsed.data.items).toHaveLength(5);
  expect(parsed.meta.mode).toBe("test");
});

test("answers conditional requests alike: the same ETag for the same answer, and 304 for it", async () => {
  for (let attempt = 1; ; attempt++) {
    const minute = Math.floor(Date.now() / 60_000);
    const tags: string[] = [];
    for (const server of servers) {
      const headers = { Authorization: `Bearer ${server.key}`, "Accept-Encoding": "gzip" };
      const full = await server.context.fetch("/v1/opportunities?limit=20", { headers, failOnStatusCode: false });
      expect(full.status(), server.name).toBe(200);
      expect(full.headers()["vary"], server.name).toContain("Accept-Encoding");
      expect(JSON.parse((await full.body()).toString("utf8")).data.items, server.name).toHaveLength(20);
      tags.push(full.headers()["etag"]!);
      const again = await server.context.fetch("/v1/opportunities?limit=20", { headers: { ...headers, "If-None-Match": tags.at(-1)! }, failOnStatusCode: false });
      expect(again.status(), server.name).toBe(304);
      expect(again.headers()["x-ratelimit-remaining"], server.name).toMatch(/^\d+$/);
      expect((await again.body()).length, server.name).toBe(0);
    }
    // The sandbox changes on the minute; within one, the same answer has the same tag on both, but
    // for the coding: server.ts sends its precompressed gzip ("…-gzip"), while Next drops a route's
    // Content-Encoding, so that mount sends the plain body and tag and leaves compression to Next.
    if (Math.floor(Date.now() / 60_000) !== minute && attempt === 1) continue;
    const plainTag = (tag: string) => tag.replace(/-(gzip|br)"$/, '"');
    expect(plainTag(tags[1]!)).toBe(plainTag(tags[0]!));
    return;
  }
});

test("refuses the same invalid queries with the same 400", async () => {
  const queries = [
    "?limit=101",
    "?limit=0",
    "?limit=1.5",
    "?limit=abc",
    "?limit=99999999999999999999",
    "?offset=-1",
    "?exchange=ftx",
    "?min_apr=ten",
    "?sort=volume",
    "?colour=blue",
    "?limit=5&limit=6",
    "?%E2%9C%93=1",
    "?limit=",
    "?symbol=%F0%9F%92%A9",
  ];
  for (const query of queries) {
    const answers = await both("GET", `/v1/opportunities${query}`, { keyed: true });
    expect(answers[0].status, `${query}: ${answers[0].body.slice(0, 300)}`).toBe(400);
    expect(JSON.parse(answers[0].body).error.code).toBe("VALIDATION_ERROR");
    expectSame(answers, `GET /v1/opportunities${query}`);
  }
});

test("answers paths with a trailing slash identically", async () => {
  // Redirects are not followed: a client that does not follow them must see the same answer.
  // Doubled slashes are left out: Next's base server answers them with a 308 before any route or
  // config is consulted, so only server.ts can answer them in the envelope.
  for (const url of ["/v1/opportunities/", "/v1/auth/verify/", "/v1/opportunities/?limit=1"]) {
    for (const auth of [{ keyed: true } as const, { header: undefined }]) {
      const answers = await both("GET", url, auth);
      expectSame(answers, `GET ${url} ${"keyed" in auth ? "with a key" : "without a key"}`);
    }
  }
});

/** Reads a streamed body until `done` says the text so far is enough, or fails after `ms`. */
async function readUntil(body: ReadableStream<Uint8Array>, done: (text: string) => boolean, ms: number): Promise<string> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let text = "";
  const deadline = setTimeout(() => void reader.cancel(), ms);
  try {
    while (!done(text)) {
      const { done: ended, value } = await reader.read();
      if (ended) break;
      text += decoder.decode(value, { stream: true });
    }
  } finally {
    clearTimeout(deadline);
    await reader.cancel().catch(() => undefined);
  }
  return text;
}

test("streams Server-Sent Events through both mounts as they are written, not when the body ends", async () => {
  for (const server of servers) {
    const response = await fetch(`${server.base}/v1/stream?types=venue.stale`, { headers: { Authorization: `Bearer ${server.key}` } });
    expect(response.status, server.name).toBe(200);
    expect(response.headers.get("content-type"), server.name).toBe("text/event-stream; charset=utf-8");
    expect(response.headers.get("content-encoding"), server.name).toBeNull();
    // The stream never ends by itself: what arrives arrived while it was open.
    const wanted = server.name === "next start" ? (text: string) => text.includes(": heartbeat") : (text: string) => text.includes(": connected");
    const text = await readUntil(response.body!, wanted, 20_000);
    expect(text.startsWith("retry: 3000\n: connected\n\n"), `${server.name}: ${text}`).toBe(true);
    expect(wanted(text), `${server.name}: ${text}`).toBe(true);
  }
  // Refusals are the usual envelopes on both.
  expectSame(await both("GET", "/v1/stream?limit=1", { keyed: true }), "GET /v1/stream?limit=1");
});
