// /v1 has one way in: server.ts's request listener (lib/api/request-listener.ts) on a loopback port,
// with the real API app and a stand-in for Next that records what reaches it. Whatever the spelling
// of the path, a /v1 request is the API's, with the client's address taken from the socket, so a key's
// IP allowlist holds against a forged X-Forwarded-For; nothing /v1-ish reaches Next.
import http, { type IncomingMessage, type ServerResponse } from "node:http";
import { getRequestListener } from "@hono/node-server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApiApp } from "@/lib/api/app";
import { createRequestListener } from "@/lib/api/request-listener";
import { createAppServices, type AppServices } from "@/lib/app-services";
import { parseTrustedProxies } from "@/lib/config/client-address";
import { testDatabaseForFile } from "@/tests/support/test-database-for-file";
import { createKeyFor, createUser } from "@/tests/support/api-fixtures";
import { closeServer, listenOnLoopback } from "@/tests/support/loopback-server";
import { currentRequestContext } from "@/lib/observability/request-context";

const database = testDatabaseForFile();
let services: AppServices;
let server: http.Server;
let port: number;
/** What the stand-in for Next was handed: method, path and the X-Real-IP it saw. */
const reachedNext: { method: string; url: string; realIp: string | undefined }[] = [];
/** The request id each of those ran under (what its log lines carry). */
const nextRequestIds: (string | undefined)[] = [];
let allowlisted: string; // a key limited to 10.0.0.1
let open: string; // a key without an allowlist

function fakeNext(req: IncomingMessage, res: ServerResponse) {
  reachedNext.push({ method: req.method ?? "", url: req.url ?? "", realIp: req.headers["x-real-ip"] as string | undefined });
  nextRequestIds.push(currentRequestContext()?.requestId);
  res.writeHead(200, { "Content-Type": "text/plain" });
  res.end("next");
}

beforeAll(async () => {
  services = createAppServices(async () => database.db);
  const user = await createUser(database.db, "pro");
  const limited = await createKeyFor(database.db, user.id);
  await database.db.apiKey.update({ where: { id: limited.id }, data: { allowedCidrs: ["10.0.0.1"] } });
  allowlisted = limited.secret;
  open = (await createKeyFor(database.db, user.id)).secret;
  const listener = createRequestListener({
    api: getRequestListener(createApiApp(() => services).fetch),
    next: fakeNext,
    trustedProxies: parseTrustedProxies(undefined),
    baselineHeaders: [["X-Content-Type-Options", "nosniff"]],
  });
  server = http.createServer(listener);
  ({ port } = await listenOnLoopback(server));
});
afterAll(async () => {
  await closeServer(server);
  await services?.stopRecorders();
});

/** Sends `path` exactly as written (no client-side normalisation, like `curl --path-as-is`). */
function send(path: string, headers: Record<string, string> = {}, method = "GET") {
  return new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }>((resolve, reject) => {
    const request = http.request({ host: "127.0.0.1", port, path, method, headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on("data", (chunk: Buffer) => chunks.push(chunk));
      response.on("end", () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks).toString("utf8") }));
      response.on("error", reject);
    });
    request.on("error", reject);
    request.end();
  });
}

const SPELLINGS = [
  "/v1/opportunities",
  "/./v1/opportunities",
  "/x/../v1/opportunities",
  "/%2e/v1/opportunities",
  "/api/../v1/opportunities",
  "//v1/opportunities",
  "/\\v1/opportunities",
  "/v%31/opportunities",
  "http://localhost./v1/opportunities",
];

describe("server.ts's request listener: one door for /v1", () => {
  it.each(SPELLINGS)("refuses %s to a key allowlisted elsewhere, whatever X-Forwarded-For says, and never hands it to Next", async (path) => {
    const before = reachedNext.length;
    const answer = await send(path, { Authorization: `Bearer ${allowlisted}`, "X-Forwarded-For": "10.0.0.1", "X-Real-IP": "10.0.0.1" });
    expect(answer.status, answer.body).toBe(403);
    expect(JSON.parse(answer.body)).toMatchObject({ error: { code: "FORBIDDEN", message: expect.stringContaining("(127.0.0.1)") } });
    expect(reachedNext.length).toBe(before);
  });

  it.each(SPELLINGS)("serves %s from the API to a key without an allowlist", async (path) => {
    const before = reachedNext.length;
    const answer = await send(path, { Authorization: `Bearer ${open}` });
    expect(answer.status, answer.body).toBe(200);
    expect(answer.headers["x-request-id"]).toMatch(/^req_/);
    expect(reachedNext.length).toBe(before);
  });

  it("answers /healthz however spelled, and a path spelled with encoded slashes with the API's 404", async () => {
    const before = reachedNext.length;
    // The API app's health answer (its status follows the process's own database, not this test's).
    for (const path of ["/healthz", "/./healthz", "/%68ealthz"]) expect((await send(path)).headers["x-request-id"], path).toMatch(/^req_/);
    // /metrics too: the API app's, refused without the health details token.
    for (const path of ["/metrics", "/./%6detrics"]) expect((await send(path)).status, path).toBe(401);
    const encoded = await send("/%2Fv1/opportunities", { Authorization: `Bearer ${open}` });
    expect(encoded.status).toBe(404);
    expect(JSON.parse(encoded.body)).toMatchObject({ error: { code: "NOT_FOUND" } });
    expect(reachedNext.length).toBe(before);
  });

  it("hands pages to Next with the socket's address in X-Real-IP, not the client's", async () => {
    const answer = await send("/account/api-keys?x=1", { "X-Forwarded-For": "10.0.0.1", "X-Real-IP": "10.0.0.1" });
    expect(answer.status).toBe(200);
    expect(answer.body).toBe("next");
    expect(answer.headers["x-content-type-options"]).toBe("nosniff");
    expect(reachedNext.at(-1)).toEqual({ method: "GET", url: "/account/api-keys?x=1", realIp: "127.0.0.1" });
  });

  it("hands each page to Next under a request id of its own, which its log lines carry", async () => {
    await send("/account/api-keys");
    await send("/account/api-keys");
    const [first, second] = nextRequestIds.slice(-2);
    expect(first).toMatch(/^req_[0-9A-Za-z]{24}$/);
    expect(second).toMatch(/^req_[0-9A-Za-z]{24}$/);
    expect(second).not.toBe(first);
  });

  it("refuses a malformed percent-encoding with 400 and TRACE with 405, before Next", async () => {
    const before = reachedNext.length;
    for (const path of ["/api/portfolio/positions/%E0%A4%A", "/account/api-keys/%zz", "/v1/opportunities/%E0%A4%A"]) {
      const answer = await send(path, { Authorization: `Bearer ${open}` });
      expect(answer.status, path).toBe(400);
      expect(JSON.parse(answer.body)).toMatchObject({ error: { code: "VALIDATION_ERROR" } });
    }
    for (const path of ["/", "/api/auth/session", "/v1/opportunities"]) {
      const answer = await send(path, {}, "TRACE");
      expect(answer.status, path).toBe(405);
      expect(answer.headers.allow).toBe("GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS");
    }
    expect(reachedNext.length).toBe(before);
  });
});
