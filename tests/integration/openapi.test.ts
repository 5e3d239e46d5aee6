import { compileErrors, validate } from "@readme/openapi-parser";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { API_ROUTES, createApiApp } from "@/lib/api/app";
import { ERROR_STATUS, type ErrorCode } from "@/lib/errors";
import { metaSchema } from "@/lib/api/openapi/envelope-schemas";
import { STREAM_PATH } from "@/lib/api/event-stream";
import { EXPORT_PATH } from "@/lib/api/export-funding-rates";
import { resourcePath } from "@/lib/api/location";
import { exampleInit, examplePath } from "@/lib/api/openapi/example-request";
import { buildOpenApiDocument, OPENAPI_PATH, openApiPath } from "@/lib/api/openapi/openapi-document";
import { createAppServices, type AppServices } from "@/lib/app-services";
import { publicOrigin } from "@/lib/config/public-url";
import { PERMISSIONS } from "@/lib/keys/permissions";
import { requestsPerMinute } from "@/lib/plans";
import { appendEventStatements } from "@/lib/events/append-events";
import { eventId } from "@/lib/events/event-types";
import { createKeyFor, createUser, liveOpportunity, seedLiveCarry, seedLiveOpportunities } from "@/tests/support/api-fixtures";
import { callExample, resolvedExample } from "./helpers/example-call";
import { fixedDepthSources } from "@/tests/support/market/fixed-depth";
import { testDatabaseForFile } from "@/tests/support/test-database-for-file";

interface Operation {
  operationId: string;
  parameters: { name: string; in: string; required: boolean; schema: Record<string, unknown> }[];
  responses: Record<string, unknown>;
  "x-permission": string | null;
}
type HeaderObject = { $ref?: string; required?: boolean };
type Document = {
  paths: Record<string, Record<string, Operation>>;
  components: { responses: Record<string, { description: string }>; headers: Record<string, HeaderObject> };
};

/** The headers a documented response says it always carries. */
function requiredHeaders(response: unknown): string[] {
  const headers = (response as { headers?: Record<string, HeaderObject> }).headers ?? {};
  return Object.entries(headers)
    .filter(([, header]) => (header.$ref ? document.components.headers[header.$ref.split("/").at(-1)!]! : header).required)
    .map(([name]) => name);
}

const database = testDatabaseForFile();
let services: AppServices;
let app: ReturnType<typeof createApiApp>;
let deskKey: string;
let testKey: string;
let testModeEventId: string;
const document = buildOpenApiDocument(API_ROUTES, publicOrigin()) as unknown as Document;

beforeAll(async () => {
  // Quotes of the made-up live opportunities read a fixed book: no venue is reached.
  services = createAppServices(async () => database.db, process.env, { depthSources: fixedDepthSources() });
  app = createApiApp(() => services);
  await seedLiveOpportunities(database.db, [liveOpportunity("BTC", 12.5), liveOpportunity("ETH", 30, "okx", "gate")]);
  // Holds BTC-spot_perp-binance-bybit, the id GET /v1/carry-opportunities/{id}'s example asks for.
  await seedLiveCarry(database.db);
  // GET /v1/events/{id}'s example reads the log's first event, a live one (evt_0000000000000001);
  // a test key reads the first test-mode event in its place (an event has one mode). The samples'
  // `after` cursors name written events too (a cursor beyond the newest event is refused).
  const venue = { exchange: "okx", status: "ok" as const, last_success_at: null, error: null };
  await database.db.$transaction(appendEventStatements(database.db, "live", [{ type: "venue.recovered", data: venue }]));
  await database.db.$transaction(appendEventStatements(database.db, "test", [{ type: "venue.recovered", data: venue }]));
  testModeEventId = eventId((await database.db.marketEvent.findFirstOrThrow({ where: { mode: "TEST" }, orderBy: { sequence: "asc" } })).sequence);
  const user = await createUser(database.db, "desk");
  deskKey = (await createKeyFor(database.db, user.id)).secret;
  testKey = (await createKeyFor(database.db, user.id, { mode: "test" })).secret;
});
afterEach(async () => {
  vi.unstubAllEnvs();
  // Every example adds webhook endpoints to the one account, whose plan allows 10 per mode.
  await database.db.webhookEndpoint.deleteMany();
});
afterAll(async () => {
  await services?.stopRecorders();
});

/** A value the parameter's documented schema allows. */
function sampleValue(schema: Record<string, unknown>): string {
  if (Array.isArray(schema.examples)) return String(schema.examples[0]);
  if (Array.isArray(schema.enum)) return String(schema.enum.at(-1));
  if (schema.type === "integer" || schema.type === "number") return String(schema.default ?? schema.minimum ?? 1);
  if (Array.isArray(schema.anyOf)) return sampleValue(schema.anyOf[0] as Record<string, unknown>);
  if (schema.format === "date-time") return "2026-11-20T00:00:00Z";
  if (schema.format === "date") return "2026-11-20";
  return "BTC";
}

const call = (path: string, key?: string) =>
  app.fetch(new Request(`http://localhost${path}`, { headers: key ? { Authorization: `Bearer ${key}` } : {} }));

describe("the OpenAPI document", () => {
  it("is a valid OpenAPI 3.1 document", async () => {
    const result = await validate(structuredClone(document) as never);
    expect(result.valid, result.valid ? "" : compileErrors(result)).toBe(true);
    expect((document as unknown as { openapi: string }).openapi).toBe("3.1.0");
  });

  it("lists exactly the /v1 operations the app registers, besides itself and the fallbacks", () => {
    const registered = app.routes
      .filter((r) => r.path.startsWith("/v1/") && r.path !== "/v1/*" && r.path !== OPENAPI_PATH && r.method !== "ALL")
      .map((r) => `${r.method} ${openApiPath(r.path)}`);
    const documented = Object.entries(document.paths).flatMap(([path, item]) =>
      Object.keys(item).map((method) => `${method.toUpperCase()} ${path}`),
    );
    expect(documented.sort()).toEqual([...new Set(registered)].sort());
    // The route table's operations, and the event stream and the export, described beside them
    // (lib/api/stream-definition.ts, lib/api/export-definition.ts).
    expect(documented.length).toBe(API_ROUTES.length + 2);
    expect(documented).toContain(`GET ${STREAM_PATH}`);
    expect(documented).toContain(`GET ${EXPORT_PATH}`);
  });

  it("describes every error code with its status, and each operation's errors with the right response", () => {
    const codes = Object.keys(ERROR_STATUS) as ErrorCode[];
    expect(Object.keys(document.components.responses).sort()).toEqual([...codes].sort());
    for (const code of codes) expect(document.components.responses[code]!.description).toMatch(new RegExp(`^${ERROR_STATUS[code]} ${code}:`));
    for (const item of Object.values(document.paths)) {
      for (const operation of Object.values(item)) {
        for (const [status, response] of Object.entries(operation.responses)) {
          const ref = (response as { $ref?: string }).$ref;
          if (!ref) continue;
          const code = ref.split("/").pop() as ErrorCode;
          expect(ERROR_STATUS[code], `${operation.operationId} ${status}`).toBe(Number(status));
        }
      }
    }
  });

  it("documents the bounds and defaults of the opportunities listing", () => {
    const parameters = document.paths["/v1/opportunities"]!.get!.parameters;
    expect(parameters.find((p) => p.name === "limit")).toMatchObject({
      in: "query",
      required: false,
      schema: { type: "integer", minimum: 1, maximum: 100, default: 50 },
    });
    expect(parameters.find((p) => p.name === "offset")).toMatchObject({ schema: { type: "integer", minimum: 0, default: 0 } });
    expect(parameters.find((p) => p.name === "min_apr")).toMatchObject({ schema: { type: "number" } });
    expect(parameters.find((p) => p.name === "exchange")?.schema.enum).toContain("binance");
  });

  it("documents the JSON body of each route that reads one, and only of those", () => {
    for (const route of API_ROUTES) {
      const operation = document.paths[openApiPath(route.path)]![route.method.toLowerCase()] as Operation & { requestBody?: unknown };
      if (!route.body) {
        expect(operation.requestBody, route.operationId).toBeUndefined();
        continue;
      }
      // A body whose every field is optional may be left out (read as `{}`).
      expect(operation.requestBody, route.operationId).toMatchObject({
        required: !route.body.safeParse({}).success,
        content: { "application/json": { schema: { type: "object" }, example: route.example?.body } },
      });
      expect(route.body.safeParse(route.example?.body).success, `${route.operationId} example body`).toBe(true);
    }
  });

  it("is served at GET /v1/openapi.json without a key, with a request id", async () => {
    const response = await call(OPENAPI_PATH);
    expect(response.status).toBe(200);
    expect(response.headers.get("x-request-id")).toMatch(/^req_/);
    expect(await response.json()).toEqual(JSON.parse(JSON.stringify(document)));
  });

  it("names the public URL configured when it is served as its server", async () => {
    for (const origin of ["https://funding-data.test", "https://api.funding-data.test:8443"]) {
      vi.stubEnv("PUBLIC_URL", origin);
      const served = (await (await call(OPENAPI_PATH)).json()) as { servers: { url: string }[]; info: { contact: { url: string } } };
      expect(served.servers.map((server) => server.url)).toEqual([origin]);
      expect(served.info.contact.url).toBe(`${origin}/docs`);
    }
  });

  it("answers another method on it with 405 and Allow: GET", async () => {
    const response = await app.fetch(new Request(`http://localhost${OPENAPI_PATH}`, { method: "POST", headers: { Authorization: `Bearer ${deskKey}` } }));
    expect(response.status).toBe(405);
    expect(response.headers.get("allow")).toBe("GET");
  });
});

// What the document says about each route is checked against what the route does.
describe.each(API_ROUTES.map((route) => ({ name: `${route.method} ${route.path}`, route })))("$name as documented", ({ route }) => {
  const operation = () => document.paths[openApiPath(route.path)]![route.method.toLowerCase()]!;
  // Parsing strips keys a schema does not name, so equality with the raw body proves nothing is undocumented.
  const envelope = z.object({ data: route.data, meta: route.meta ? metaSchema.extend(route.meta.shape) : metaSchema });

  for (const [mode, key] of [
    ["live", () => deskKey],
    ["test", () => testKey],
  ] as const) {
    it(`answers its example request with a ${mode} key in exactly the documented shape`, async () => {
      const resolved = await resolvedExample(app, route, key());
      const example = mode === "test" && route.example?.params?.id === "evt_0000000000000001" ? { ...resolved, example: { ...resolved.example, params: { id: testModeEventId } } } : resolved;
      const response = await callExample(app, example, key());
      const body = await response.json();
      expect(response.status, JSON.stringify(body)).toBe(route.status ?? 200);
      const documented = requiredHeaders(operation().responses[String(route.status ?? 200)]);
      expect(documented).toEqual(expect.arrayContaining(["X-Request-Id", "X-RateLimit-Limit", "X-RateLimit-Remaining", "X-RateLimit-Reset"]));
      for (const header of documented) expect(response.headers.get(header), header).not.toBeNull();
      expect(envelope.parse(body)).toEqual(body);
      if (!route.location) {
        expect(response.headers.get("location")).toBeNull();
        return;
      }
      // A creation's Location reads back what it created, with the same key.
      const location = response.headers.get("location");
      expect(location).toBe(resourcePath(route.location, body.data.id));
      const read = await call(location!, key());
      expect(read.status).toBe(200);
      expect(((await read.json()) as { data: { id: string } }).data.id).toBe(body.data.id);
    });
  }

  it.runIf(route.cached)("answers If-None-Match with the documented 304: its headers and no body", async () => {
    const example = await resolvedExample(app, route, deskKey);
    const first = await callExample(app, example, deskKey);
    const etag = first.headers.get("etag");
    expect(etag).toMatch(/^"/);
    const response = await app.fetch(
      new Request(`http://localhost${examplePath(example)}`, { headers: { Authorization: `Bearer ${deskKey}`, "If-None-Match": etag! } }),
    );
    expect(response.status).toBe(304);
    expect(await response.text()).toBe("");
    const documented = requiredHeaders(operation().responses["304"]);
    expect(documented).toEqual(expect.arrayContaining(["ETag", "X-RateLimit-Remaining", "RateLimit"]));
    for (const header of documented) expect(response.headers.get(header), header).not.toBeNull();
  });

  it("needs exactly the documented permission", async () => {
    expect(operation()["x-permission"]).toBe(route.permission);
    const user = await createUser(database.db, "desk");
    const others = PERMISSIONS.filter((p) => p !== route.permission);
    const without = await createKeyFor(database.db, user.id, { permissions: others });
    const only = await createKeyFor(database.db, user.id, { permissions: route.permission ? [route.permission] : [] });
    // The resource a route reads is created by a key of the same account that may create it.
    const creator = await createKeyFor(database.db, user.id);
    const example = await resolvedExample(app, route, creator.secret);
    expect((await callExample(app, example, only.secret)).status).toBe(route.status ?? 200);
    expect((await callExample(app, example, without.secret)).status).toBe(route.permission ? 403 : 200);
  });

  it("accepts the documented query parameters and refuses others", async () => {
    const names = operation()
      .parameters.filter((p) => p.in === "query")
      .map((p) => p.name);
    expect(names.sort()).toEqual(Object.keys(route.query?.shape ?? {}).sort());
    const example = await resolvedExample(app, route, deskKey);
    const separator = examplePath(example).includes("?") ? "&" : "?";
    const refused = await callExample(app, example, deskKey, `${examplePath(example)}${separator}undocumented_parameter=1`);
    expect(refused.status).toBe(400);
    // Unknown parameters are refused, so a documented one being served proves the handler knows it.
    for (const parameter of operation().parameters.filter((p) => p.in === "query" && !(p.name in (example.example?.query ?? {})))) {
      const query = new URLSearchParams({ ...example.example?.query, [parameter.name]: sampleValue(parameter.schema) });
      const path = `${examplePath({ ...example, example: { ...example.example, query: {} } })}?${query}`;
      const response = await callExample(app, example, deskKey, path);
      expect(response.status, `${path}: ${await response.text()}`).toBe(route.status ?? 200);
    }
    for (const parameter of operation().parameters.filter((p) => p.in === "query" && p.required)) {
      const without = new URLSearchParams(example.example?.query);
      without.delete(parameter.name);
      const path = examplePath({ ...example, example: { ...example.example, query: Object.fromEntries(without) } });
      expect((await callExample(app, example, deskKey, path)).status, `${parameter.name} is required`).toBe(400);
    }
  });
});

describe("the headers the document promises", () => {
  it("sends a creation's Location on an idempotent replay too", async () => {
    // A creation whose answer holds a secret shown once is not replayed (409): tested in webhook-api.test.ts.
    for (const route of API_ROUTES.filter((r) => r.location && !r.showsSecretOnce)) {
      const init = exampleInit(route);
      const send = () =>
        app.fetch(
          new Request(`http://localhost${examplePath(route)}`, {
            ...init,
            headers: { ...init.headers, Authorization: `Bearer ${deskKey}`, "Idempotency-Key": `location-${route.operationId}` },
          }),
        );
      const first = await send();
      const replay = await send();
      expect(replay.headers.get("idempotent-replayed"), route.operationId).toBe("true");
      expect(first.headers.get("location"), route.operationId).toMatch(/^\/v1\//);
      expect(replay.headers.get("location"), route.operationId).toBe(first.headers.get("location"));
    }
  });

  it("sends the rate-limit headers once the key is counted, and not on 401 or on the document itself", async () => {
    const rateLimitHeaders = (response: Response) =>
      ["x-ratelimit-limit", "x-ratelimit-remaining", "x-ratelimit-reset"].map((name) => response.headers.get(name));
    const free = await createUser(database.db, "free");
    const freeKey = (await createKeyFor(database.db, free.id)).secret;
    const counted: [string, Response | Promise<Response>, number][] = [
      ["400", call("/v1/opportunities?limit=0", deskKey), 400],
      ["403", call("/v1/opportunities", freeKey), 403],
      ["404", call("/v1/no-such-path", deskKey), 404],
      ["405", app.fetch(new Request("http://localhost/v1/opportunities", { method: "PUT", headers: { Authorization: `Bearer ${deskKey}` } })), 405],
    ];
    for (const [name, pending, status] of counted) {
      const response = await pending;
      expect(response.status, name).toBe(status);
      expect(rateLimitHeaders(response).every((value) => value !== null && /^\d+$/.test(value)), name).toBe(true);
    }
    // A Free account's key is counted against its verify-only allowance.
    const verified = await call("/v1/auth/verify", freeKey);
    expect(verified.status).toBe(200);
    expect(verified.headers.get("x-ratelimit-limit")).toBe(String(requestsPerMinute("free")));
    for (const response of [await call("/v1/opportunities"), await call("/v1/opportunities", "svc_sk_live_malformed"), await call(OPENAPI_PATH)]) {
      expect(rateLimitHeaders(response)).toEqual([null, null, null]);
    }
  });
});
