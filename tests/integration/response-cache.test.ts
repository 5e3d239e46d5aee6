import http from "node:http";
import type { AddressInfo } from "node:net";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { getRequestListener } from "@hono/node-server";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createApiApp } from "@/lib/api/app";
import { createAppServices, type AppServices } from "@/lib/app-services";
import { revokeKey } from "@/lib/keys/account-keys";
import type { DbTier } from "@/lib/keys/permissions";
import { createKeyFor, createUser, dbServices, liveOpportunity, seedLiveOpportunities, signedIn } from "@/tests/support/api-fixtures";
import { expectEnvelope, expectRateLimitHeaders } from "./helpers/api-envelope";
import { testDatabaseForFile } from "@/tests/support/test-database-for-file";
import { withRoomInWindow } from "@/tests/support/fixed-window";

// The hot reads' cache (lib/api/cached-read.ts) through the real app, two ways: a Web Request to
// `app.fetch` of an app created with `precompress: false` (for a host that compresses by itself),
// and node's request to the default app through @hono/node-server's listener, as server.ts does.
// Bodies are read raw, as sent. Both apps share one set of services, so one cache.

const database = testDatabaseForFile();
let services: AppServices;
let app: ReturnType<typeof createApiApp>;
let plainApp: ReturnType<typeof createApiApp>;
let user: { id: string; tier: DbTier };
let desk: string;
let testKey: string;
let overLimit: { secret: string; id: string };
const origin = { ip: "203.0.113.7", userAgent: "vitest" };
const MINUTE_START = Math.ceil(Date.now() / 60_000) * 60_000;

const firstSet = Array.from({ length: 60 }, (_, i) => liveOpportunity(`COIN${i}`, 10 + i));

beforeAll(async () => {
  const base = createAppServices(async () => database.db);
  await seedLiveOpportunities(database.db, firstSet);
  user = await createUser(database.db, "desk");
  desk = (await createKeyFor(database.db, user.id)).secret;
  testKey = (await createKeyFor(database.db, user.id, { mode: "test" })).secret;
  overLimit = await createKeyFor(database.db, user.id);
  // One key the real limiter always refuses, as if its minute were used up.
  services = {
    ...base,
    limiter: Object.assign(Object.create(base.limiter) as AppServices["limiter"], {
      async limit(key: string, max: number, windowMs: number) {
        const result = await base.limiter.limit(key, max, windowMs);
        return key === `key:${overLimit.id}` ? { ...result, success: false, remaining: 0 } : result;
      },
    }),
  };
  app = createApiApp(() => services);
  plainApp = createApiApp(() => services, { precompress: false });
});
afterAll(async () => {
  await services?.stopRecorders();
});

interface Answer {
  status: number;
  header(name: string): string | null;
  /** The body as sent, still compressed when it was. */
  raw: Buffer;
}

type Send = (path: string, key: string, headers?: Record<string, string>) => Promise<Answer>;

const viaPlainApp: Send = async (path, key, headers = {}) => {
  const response = await plainApp.fetch(new Request(`http://localhost${path}`, { headers: { Authorization: `Bearer ${key}`, ...headers } }));
  return { status: response.status, header: (name) => response.headers.get(name), raw: Buffer.from(await response.arrayBuffer()) };
};

let server: http.Server | undefined;
const viaNodeServer: Send = async (path, key, headers = {}) => {
  if (!server) {
    server = http.createServer(getRequestListener(app.fetch));
    await new Promise<void>((resolve) => server!.listen(0, "127.0.0.1", resolve));
  }
  const { port } = server.address() as AddressInfo;
  return new Promise((resolve, reject) => {
    const request = http.get({ host: "127.0.0.1", port, path, headers: { Authorization: `Bearer ${key}`, ...headers } }, (response) => {
      const chunks: Buffer[] = [];
      response.on("data", (chunk: Buffer) => chunks.push(chunk));
      response.on("end", () =>
        resolve({
          status: response.statusCode ?? 0,
          header: (name) => {
            const value = response.headers[name.toLowerCase()];
            return value === undefined ? null : String(value);
          },
          raw: Buffer.concat(chunks),
        }),
      );
      response.on("error", reject);
    });
    request.on("error", reject);
  });
};
afterAll(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())));

/** The body decoded as its Content-Encoding says, checked as a /v1 envelope. */
function envelopeOf(answer: Answer, context: string) {
  const coding = answer.header("content-encoding");
  const text = (coding === "gzip" ? gunzipSync(answer.raw) : coding === "br" ? brotliDecompressSync(answer.raw) : answer.raw).toString("utf8");
  const headers = new Headers({ "content-type": answer.header("content-type") ?? "", "x-request-id": answer.header("x-request-id") ?? "" });
  const envelope = expectEnvelope(answer.status, headers, text, context);
  if (envelope.kind !== "success") throw new Error(`expected a success: ${text}`);
  return { ...envelope, text };
}

function rateLimitOf(answer: Answer, context: string) {
  const headers = new Headers();
  for (const name of ["x-ratelimit-limit", "x-ratelimit-remaining", "x-ratelimit-reset", "ratelimit", "ratelimit-policy"]) {
    const value = answer.header(name);
    if (value !== null) headers.set(name, value);
  }
  return expectRateLimitHeaders(headers, services.requestsPerMinute("desk"), context);
}

const PAGE = "/v1/opportunities?limit=50";

describe.each([
  ["app.fetch with precompress: false", viaPlainApp, false],
  ["server.ts (node:http through @hono/node-server)", viaNodeServer, true],
] as const)("cached reads through %s", (_, send, precompresses) => {
  it("answers with a strong ETag, Vary, private no-cache and both sets of rate-limit headers", async () => {
    const answer = await send(PAGE, desk);
    expect(answer.status).toBe(200);
    expect(answer.header("etag")).toMatch(/^"[A-Za-z0-9_-]{22}"$/);
    expect(answer.header("vary")).toBe("Accept-Encoding");
    expect(answer.header("cache-control")).toBe("private, no-cache");
    expect(answer.header("content-encoding")).toBeNull();
    expect(answer.header("x-content-type-options")).toBe("nosniff");
    expect(answer.header("access-control-expose-headers")).toContain("ETag");
    rateLimitOf(answer, PAGE);
    const { data, meta } = envelopeOf(answer, PAGE);
    expect((data as { items: unknown[] }).items).toHaveLength(50);
    expect(meta).toMatchObject({ mode: "live", sample: false });
  });

  it("keeps the ETag while the set is unchanged and only the legs' ages move, and every response has its own meta", async () => {
    const first = await send(PAGE, desk);
    // An answer is rebuilt a second on (AGE_REUSE_MS), with its legs' ages then.
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    const second = await send(PAGE, desk);
    expect(second.header("etag")).toBe(first.header("etag"));
    const [a, b] = [envelopeOf(first, PAGE), envelopeOf(second, PAGE)];
    expect(b.meta.request_id).not.toBe(a.meta.request_id);
    const ages = (data: unknown) => (data as { items: { long: { age_seconds: number } }[] }).items.map((item) => item.long.age_seconds);
    expect(ages(b.data)[0]).toBeGreaterThan(ages(a.data)[0]!);
    // The same query written differently is the same answer.
    expect((await send("/v1/opportunities?offset=0&sort=-apr&limit=50", desk)).header("etag")).toBe(first.header("etag"));
  });

  it("answers If-None-Match with 304, no body and the rate-limit headers, counted against the limit", async () => {
    // A key of its own: the limiter keeps the newest window it saw, so the clock set ahead here
    // would leave the other keys' counts in the future.
    const key = (await createKeyFor(database.db, user.id)).secret;
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(MINUTE_START + 17_300);
    try {
      const full = await send(PAGE, key);
      const etag = full.header("etag")!;
      const before = rateLimitOf(full, "200");
      const notModified = await send(PAGE, key, { "If-None-Match": etag });
      expect(notModified.status).toBe(304);
      expect(notModified.raw.length).toBe(0);
      expect(notModified.header("etag")).toBe(etag);
      expect(notModified.header("vary")).toBe("Accept-Encoding");
      expect(notModified.header("x-request-id")).toMatch(/^req_/);
      expect(rateLimitOf(notModified, "304").remaining).toBe(before.remaining - 1);
      // A weak form, a list and * match too; another tag does not.
      expect((await send(PAGE, key, { "If-None-Match": `"other", W/${etag}` })).status).toBe(304);
      expect((await send(PAGE, key, { "If-None-Match": "*" })).status).toBe(304);
      expect((await send(PAGE, key, { "If-None-Match": '"other"' })).status).toBe(200);
    } finally {
      vi.useRealTimers();
    }
  });

  it.runIf(precompresses).each(["gzip", "br"])("sends %s from the precompressed body, decoding to the same answer, with its own ETag", async (coding) => {
    const plain = await send(PAGE, desk);
    const compressed = await send(PAGE, desk, { "Accept-Encoding": `${coding}, deflate` });
    expect(compressed.status).toBe(200);
    expect(compressed.header("content-encoding")).toBe(coding);
    expect(compressed.header("vary")).toBe("Accept-Encoding");
    expect(compressed.raw.length).toBeLessThan(plain.raw.length / 3);
    const [a, b] = [envelopeOf(plain, "identity"), envelopeOf(compressed, coding)];
    expect(b.data).toEqual(a.data);
    expect({ ...b.meta, request_id: "", timestamp: "" }).toEqual({ ...a.meta, request_id: "", timestamp: "" });
    // Byte for byte the plain body but for meta's own request id and timestamp.
    expect(b.text).toBe(a.text.replace(String(a.meta.request_id), String(b.meta.request_id)).replace(String(a.meta.timestamp), String(b.meta.timestamp)));
    const etag = compressed.header("etag")!;
    expect(etag).toBe(plain.header("etag")!.replace(/"$/, `-${coding}"`));
    expect((await send(PAGE, desk, { "Accept-Encoding": coding, "If-None-Match": etag })).status).toBe(304);
    // The plain body's tag does not validate the compressed one: they are different representations.
    expect((await send(PAGE, desk, { "Accept-Encoding": coding, "If-None-Match": plain.header("etag")! })).status).toBe(200);
  });

  it.runIf(!precompresses)("without precompression, sends the plain body and its ETag", async () => {
    const plain = await send(PAGE, desk);
    const asked = await send(PAGE, desk, { "Accept-Encoding": "br, gzip" });
    expect(asked.header("content-encoding")).toBeNull();
    expect(asked.header("vary")).toBe("Accept-Encoding");
    expect(asked.header("etag")).toBe(plain.header("etag"));
    expect(envelopeOf(asked, "uncompressed").data).toEqual(envelopeOf(plain, "plain").data);
    expect((await send(PAGE, desk, { "Accept-Encoding": "gzip", "If-None-Match": plain.header("etag")! })).status).toBe(304);
  });

  it("sends bodies under a kilobyte uncompressed, still with Vary", async () => {
    const answer = await send("/v1/opportunities?symbol=NOPE", desk, { "Accept-Encoding": "gzip, br" });
    expect(answer.status).toBe(200);
    expect(answer.raw.length).toBeLessThan(1024);
    expect(answer.header("content-encoding")).toBeNull();
    expect(answer.header("vary")).toBe("Accept-Encoding");
    expect(envelopeOf(answer, "small").data).toMatchObject({ items: [], total: 0 });
  });

  it("caches one opportunity and the exchanges too, and test keys apart from live ones", async () => {
    const paths = ["/v1/opportunities/COIN3-binance-bybit", "/v1/exchanges"];
    // One opportunity's history ends at the minute's start, so its answer rightly changes when a
    // minute turns: begin far enough from the turn that the wait below stays within one minute.
    await withRoomInWindow(60_000, 5_000);
    const firsts = await Promise.all(paths.map((path) => send(path, desk)));
    for (const first of firsts) expect(first.status).toBe(200);
    // Still 304 once the answers were rebuilt (a second on, or two), their ages moved.
    await new Promise((resolve) => setTimeout(resolve, 2_100));
    for (const [i, path] of paths.entries()) {
      expect((await send(path, desk, { "If-None-Match": firsts[i]!.header("etag")! })).status, path).toBe(304);
    }
    const live = await send("/v1/opportunities?limit=5", desk);
    const sandbox = await send("/v1/opportunities?limit=5", testKey);
    expect(envelopeOf(sandbox, "sandbox").meta.mode).toBe("test");
    expect(sandbox.header("etag")).not.toBe(live.header("etag"));
    expect((await send("/v1/opportunities?limit=5", testKey, { "If-None-Match": live.header("etag")! })).status).toBe(200);
  });

  it("checks the key, its limit, the query and the id before anything is looked up", async () => {
    const cached = await send(PAGE, desk);
    const etag = cached.header("etag")!;
    expect((await send(PAGE, "svc_sk_live_malformed", { "If-None-Match": etag })).status).toBe(401);
    const limited = await send(PAGE, overLimit.secret, { "If-None-Match": etag });
    expect(limited.status).toBe(429);
    expect(limited.header("retry-after")).toMatch(/^\d+$/);
    expect(limited.header("ratelimit")).toMatch(/^"default";r=0;t=\d+$/);
    expect((await send("/v1/opportunities?limit=500", desk, { "If-None-Match": etag })).status).toBe(400);
    expect((await send("/v1/opportunities/NOPE-binance-okx", desk)).status).toBe(404);
  });
});

describe("what changes a cached answer", () => {
  it("refuses a revoked key with 401 from the cached path on the very next request", async () => {
    const key = await createKeyFor(database.db, user.id);
    const first = await viaNodeServer(PAGE, key.secret);
    expect(first.status).toBe(200);
    expect((await viaNodeServer(PAGE, key.secret, { "If-None-Match": first.header("etag")! })).status).toBe(304);
    await revokeKey(dbServices(database.db), signedIn(user), key.id, origin);
    for (const send of [viaNodeServer, viaPlainApp]) {
      expect((await send(PAGE, key.secret)).status).toBe(401);
      expect((await send(PAGE, key.secret, { "If-None-Match": first.header("etag")! })).status).toBe(401);
    }
  });

  it("changes the ETag and the body when a new set is published", async () => {
    const before = await viaPlainApp(PAGE, desk);
    const etag = before.header("etag")!;
    const gzipBefore = (await viaNodeServer(PAGE, desk, { "Accept-Encoding": "gzip" })).header("etag");
    const newSet = firstSet.map((o, i) => (i === 0 ? { ...o, apr: 99, net_apr: 94 } : o));
    await seedLiveOpportunities(database.db, newSet, new Date("2026-11-21T16:00:00Z"));
    services.opportunitiesPublished();

    const after = await viaPlainApp(PAGE, desk, { "If-None-Match": etag });
    expect(after.status).toBe(200);
    expect(after.header("etag")).not.toBe(etag);
    const { data, meta } = envelopeOf(after, "after publish");
    expect((data as { items: { id: string; apr: number }[] }).items[0]).toMatchObject({ id: "COIN0-binance-bybit", apr: 99 });
    expect(meta.data_as_of).toBe("2026-11-21T16:00:00.000Z");
    const gzipAfter = await viaNodeServer(PAGE, desk, { "Accept-Encoding": "gzip", "If-None-Match": gzipBefore! });
    expect(gzipAfter.status).toBe(200);
    expect(gzipAfter.header("etag")).toBe(after.header("etag")!.replace(/"$/, '-gzip"'));
    expect(envelopeOf(gzipAfter, "gzip after publish").data).toEqual(data);
    expect((await viaNodeServer(PAGE, desk, { "If-None-Match": after.header("etag")! })).status).toBe(304);
  });

  it("reports its size against its budget, hits and misses", () => {
    const stats = services.responseCache.stats();
    expect(stats.entries).toBeGreaterThan(0);
    expect(stats.bytes).toBeGreaterThan(0);
    expect(stats.bytes).toBeLessThanOrEqual(stats.max_bytes);
    expect(stats.hits).toBeGreaterThan(stats.misses);
  });
});
