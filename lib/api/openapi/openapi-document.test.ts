import { describe, expect, it } from "vitest";
import { API_ROUTES } from "@/lib/api/app";
import { ERROR_STATUS, type ErrorCode } from "@/lib/errors";
import { DEFAULT_HOLDING_DAYS, DEFAULT_TAKER_FEE } from "@/lib/market/model/apr";
import { VENUE_IDS } from "@/lib/market/model/types";
import { PLANS, requestsPerMinute } from "@/lib/plans";
import { buildOpenApiDocument, openApiPath } from "./openapi-document";
import { API_TAGS } from "./tags";

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const ORIGIN = "https://funding-data.test";
const document = buildOpenApiDocument(API_ROUTES, ORIGIN) as Json;
const operations = Object.entries(document.paths as Json).flatMap(([path, item]) =>
  Object.entries(item as Json).map(([method, operation]) => ({ path, method, operation: operation as Json })),
);
const component = (ref: string): Json => ref.split("/").slice(1).reduce((node: Json, key) => node[key], document);
const deref = (node: Json): Json => (typeof node.$ref === "string" ? component(node.$ref) : node);
const RATE_LIMIT = ["X-RateLimit-Limit", "X-RateLimit-Remaining", "X-RateLimit-Reset", "RateLimit", "RateLimit-Policy"];

describe("the OpenAPI document's metadata", () => {
  it("names the configured public URL as its one server, and the contact and licence under it", () => {
    expect(document.servers).toEqual([{ url: ORIGIN, description: expect.any(String) }]);
    expect((buildOpenApiDocument(API_ROUTES, "https://elsewhere.test") as Json).servers[0].url).toBe("https://elsewhere.test");
    expect(document.info.contact).toEqual({ name: expect.any(String), url: `${ORIGIN}/docs` });
    expect(document.info.license).toEqual({ name: expect.any(String), url: `${ORIGIN}/docs#licence` });
  });

  it("describes every tag an operation uses, in the reference's order", () => {
    const used = new Set(operations.flatMap(({ operation }) => operation.tags as string[]));
    expect(document.tags.map((tag: Json) => tag.name)).toEqual(Object.keys(API_TAGS).filter((name) => used.has(name)));
    for (const tag of document.tags) expect(tag.description, tag.name).toBe(API_TAGS[tag.name as keyof typeof API_TAGS]);
  });

  it("states the fixed window, each plan's limit and the Free allowance from the plans themselves", () => {
    const description = document.info.description as string;
    expect(description).toContain("fixed window of one clock minute");
    for (const plan of PLANS.filter((p) => p.features.api)) expect(description).toContain(`${plan.requestsPerMinute} (${plan.name})`);
    expect(description).toContain(`a Free account's key may make ${requestsPerMinute("free")}, and can call only GET /v1/auth/verify`);
    expect(description).toContain("not on a 401");
    expect(JSON.stringify(document)).not.toMatch(/sliding/i);
  });

  it("states the contract every operation shares: strict queries, unknown paths after the key, test-mode records, CORS, versioning", () => {
    const description = document.info.description as string;
    expect(description).toContain("refuses unknown or repeated query parameters (400 VALIDATION_ERROR)");
    expect(description).toContain("answered only once the key is valid (401 before that), then 404 NOT_FOUND, or 405");
    expect(description).toContain("Test keys have their own simulations, portfolio, webhook endpoints, alert rules, events and idempotency keys");
    expect(description).toContain("`Access-Control-Allow-Origin: *`, never with credentials");
    expect(description).toContain("a change that would break a client comes under a new prefix");
  });

  it("states what net_apr assumes on the opportunities listing", () => {
    const list = operations.find(({ path, method }) => path === "/v1/opportunities" && method === "get")!.operation;
    expect(list.description).toContain(`${DEFAULT_HOLDING_DAYS}-day holding period`);
    expect(list.description).toContain(`${DEFAULT_TAKER_FEE * 100} %`);
  });
});

describe("the OpenAPI document's responses", () => {
  it("marks the X-Request-Id, rate-limit, Retry-After and Location headers required, as they always appear where referenced", () => {
    for (const name of ["X-Request-Id", ...RATE_LIMIT, "Retry-After", "Location", "ETag"]) {
      expect(document.components.headers[name].required, name).toBe(true);
    }
    expect(document.components.headers["Idempotent-Replayed"].required).toBe(false);
  });

  it("puts the rate-limit headers on every success and every error decided after the key was counted, and only there", () => {
    const counted: ErrorCode[] = ["VALIDATION_ERROR", "FORBIDDEN", "NOT_FOUND", "METHOD_NOT_ALLOWED", "IDEMPOTENCY_CONFLICT", "RATE_LIMITED", "VENUE_UNAVAILABLE"];
    for (const code of Object.keys(ERROR_STATUS) as ErrorCode[]) {
      const headers = Object.keys(document.components.responses[code].headers);
      if (counted.includes(code)) expect(headers, code).toEqual(expect.arrayContaining(RATE_LIMIT));
      else for (const name of RATE_LIMIT) expect(headers, code).not.toContain(name);
    }
    expect(Object.keys(document.components.responses.RATE_LIMITED.headers)).toContain("Retry-After");
    expect(document.components.responses.METHOD_NOT_ALLOWED.headers.Allow.required).toBe(true);
    expect(document.components.responses.PAYLOAD_TOO_LARGE.headers).toEqual({});
    for (const { operation } of operations) {
      const [status, success] = Object.entries(operation.responses as Json).find(([s]) => s.startsWith("2"))!;
      expect(Object.keys(success.headers), `${operation.operationId} ${status}`).toEqual(expect.arrayContaining(["X-Request-Id", ...RATE_LIMIT]));
    }
  });

  it("documents the cached reads' ETag, Vary, Cache-Control, compression, If-None-Match and 304", () => {
    const cached = API_ROUTES.filter((route) => route.cached).map((route) => route.operationId);
    expect(cached.sort()).toEqual(["getCarryOpportunity", "getFundingRateCoverage", "getOpportunity", "listCarryOpportunities", "listExchanges", "listOpportunities"]);
    for (const { operation } of operations) {
      const isCached = cached.includes(operation.operationId);
      const ifNoneMatch = (operation.parameters as Json[]).find((p) => p.in === "header" && p.name === "If-None-Match");
      expect(Boolean(ifNoneMatch), operation.operationId).toBe(isCached);
      expect(Boolean(operation.responses["304"]), operation.operationId).toBe(isCached);
      if (!isCached) continue;
      expect(ifNoneMatch!.description).toContain("counted like any other");
      expect(operation.description).toContain("Accept-Encoding");
      const success = operation.responses["200"];
      expect(Object.keys(success.headers)).toEqual(expect.arrayContaining(["ETag", "Vary", "Cache-Control", "Content-Encoding"]));
      const notModified = operation.responses["304"];
      expect(notModified.content).toBeUndefined();
      expect(Object.keys(notModified.headers)).toEqual(expect.arrayContaining(["X-Request-Id", "ETag", "Vary", "Cache-Control", ...RATE_LIMIT]));
    }
    for (const name of ["ETag", "Vary", "Cache-Control"]) expect(document.components.headers[name].required, name).toBe(true);
    expect(document.components.headers["Content-Encoding"].required).toBe(false);
    expect(document.info.description).toContain("a 304 uses one request of the minute's limit");
  });

  it("references 405 from every operation, and 413 from those that take a body", () => {
    for (const { operation } of operations) {
      expect(operation.responses["405"], operation.operationId).toEqual({ $ref: "#/components/responses/METHOD_NOT_ALLOWED" });
      if (operation.requestBody) expect(operation.responses["413"], operation.operationId).toEqual({ $ref: "#/components/responses/PAYLOAD_TOO_LARGE" });
      else expect(operation.responses["413"], operation.operationId).toBeUndefined();
    }
    const used = new Set(JSON.stringify(document.paths).match(/#\/components\/responses\/[A-Z_]+/g));
    expect([...used].sort()).toEqual(Object.keys(ERROR_STATUS).map((code) => `#/components/responses/${code}`).sort());
  });

  it("gives each creation a Location header and links to every operation on what it created", () => {
    const creating = API_ROUTES.filter((route) => route.status === 201);
    expect(creating.map((route) => route.operationId).sort()).toEqual(["createAlertRule", "createPortfolioPosition", "createSimulation", "createWebhookEndpoint"]);
    for (const route of creating) {
      expect(route.location, route.operationId).toBeDefined();
      const created = document.paths[openApiPath(route.path)][route.method.toLowerCase()].responses["201"];
      expect(created.headers.Location).toEqual({ $ref: "#/components/headers/Location" });
      // The operations on the created resource are the ones whose examples read what this one creates,
      // directly or through a resource created under it (a webhook endpoint's deliveries).
      const createdFrom = (r: (typeof API_ROUTES)[number]): boolean => {
        const creator = API_ROUTES.find((c) => c.operationId === r.example?.createdBy);
        return creator !== undefined && (creator.operationId === route.operationId || createdFrom(creator));
      };
      const readers = API_ROUTES.filter(createdFrom).map((r) => r.operationId);
      expect(Object.keys(created.links).sort()).toEqual(readers.sort());
      for (const [name, link] of Object.entries(created.links as Json)) {
        expect(link, name).toMatchObject({ operationId: name, parameters: { id: "$response.body#/data/id" } });
        const target = operations.find(({ operation }) => operation.operationId === name)!;
        expect(target.path.startsWith(openApiPath(route.location!)), name).toBe(true);
        expect(target.operation.parameters.map((p: Json) => `${p.in}:${p.name}`), name).toContain("path:id");
      }
    }
  });
});

/** Every property of the named schemas whose name says it is an instant, by its path of property names. */
function timestampProperties(): { path: string; schema: Json }[] {
  const found: { path: string; schema: Json }[] = [];
  const walk = (node: Json, path: string[]) => {
    for (const [name, schema] of Object.entries((node.properties ?? {}) as Json)) {
      if (/^(timestamp|date|time|from|to|as_of|data_as_of)$|_at$/.test(name)) found.push({ path: [...path, name].join("."), schema });
      walk(schema, [...path, name]);
    }
    for (const variant of [node.items, ...(node.anyOf ?? []), ...(node.oneOf ?? [])]) if (variant) walk(variant, path);
  };
  for (const [name, schema] of Object.entries(document.components.schemas as Json)) walk(schema, [name]);
  return found;
}

describe("the OpenAPI document's schemas", () => {
  it("gives every timestamp format date-time", () => {
    const timestamps = timestampProperties();
    expect(timestamps.length).toBeGreaterThan(20);
    const missing = timestamps
      .filter(({ schema }) => ((schema.anyOf ?? [schema]) as Json[]).some((s) => s.type !== "null" && s.format !== "date-time"))
      .map(({ path }) => path);
    expect(missing).toEqual([]);
  });

  it("states the range limits as schema bounds, and the funding-rate window where JSON Schema cannot", () => {
    const parameters = document.paths["/v1/funding-rates"].get.parameters as Json[];
    for (const name of ["from", "to"]) {
      expect(parameters.find((p) => p.name === name)!.description).toContain("at most 31 days");
    }
    for (const { operation } of operations) {
      for (const parameter of (operation.parameters as Json[]).filter((p) => p.schema.type === "integer")) {
        expect(parameter.schema, `${operation.operationId} ${parameter.name}`).toMatchObject({ minimum: expect.any(Number), maximum: expect.any(Number) });
      }
    }
    const page = (name: string) => deref(document.components.schemas[name]).properties.data.properties;
    expect(page("ListFundingRatesResponse").limit).toMatchObject({ minimum: 1, maximum: 1000 });
    expect(page("ListOpportunitiesResponse").limit).toMatchObject({ minimum: 1, maximum: 100 });
    expect(page("ListSimulationsResponse").offset).toMatchObject({ minimum: 0, maximum: 1_000_000 });
    const simulation = document.components.schemas.GetSimulationResponse.properties.data.properties;
    expect(simulation.holding_days).toMatchObject({ minimum: 1, maximum: 365 });
    expect(simulation.notional_usd).toMatchObject({ minimum: 1, maximum: 100_000_000 });
  });
});

describe("the rules of request bodies the document states from the schemas", () => {
  const body = (operationId: string): Json => {
    const found = operations.find(({ operation }) => operation.operationId === operationId)!;
    return found.operation.requestBody.content["application/json"].schema;
  };
  /** A property's schema in every shape the body may take (each `oneOf` branch, or the body itself). */
  const everywhere = (schema: Json, name: string): Json[] => {
    const shapes: Json[] = schema.oneOf ?? [schema];
    return shapes.map((shape) => shape.properties[name]).filter(Boolean).map((p: Json) => p.anyOf?.find((a: Json) => a.type === "array") ?? p);
  };

  it("refuses repeats in event_types, endpoint_ids and exchanges (uniqueItems)", () => {
    for (const [operationId, name] of [
      ["createWebhookEndpoint", "event_types"],
      ["updateWebhookEndpoint", "event_types"],
      ["createAlertRule", "endpoint_ids"],
      ["createAlertRule", "exchanges"],
      ["updateAlertRule", "endpoint_ids"],
      ["updateAlertRule", "exchanges"],
    ] as const) {
      const found = everywhere(body(operationId), name);
      expect(found.length, `${operationId}.${name}`).toBeGreaterThan(0);
      for (const list of found) expect(list.uniqueItems, `${operationId}.${name}`).toBe(true);
    }
  });

  it("refuses a blank alert-rule name", () => {
    for (const name of [...everywhere(body("createAlertRule"), "name"), ...everywhere(body("updateAlertRule"), "name")]) {
      expect(name.minLength).toBe(1);
      const patterns = [name.pattern, ...(name.allOf ?? []).map((p: Json) => p.pattern)].filter(Boolean);
      expect(patterns).toContain("\\S");
    }
  });

  it("states an alert rule's conditions by kind, as one shape per kind", () => {
    const shapes = body("createAlertRule").oneOf as Json[];
    expect(shapes.map((shape) => shape.properties.kind.const)).toEqual(["opportunity", "funding_interval", "venue", "carry"]);
    const venue = shapes.find((shape) => shape.properties.kind.const === "venue")!;
    expect(venue.properties.symbol).toMatchObject({ type: "null" });
    expect(venue.properties.min_net_apr).toMatchObject({ type: "null" });
    expect(venue.properties.exchanges.maxItems).toBe(VENUE_IDS.length);
    expect(venue.additionalProperties).toBe(false);
    const carry = shapes.find((shape) => shape.properties.kind.const === "carry")!;
    expect(carry.properties.min_net_apr.type).not.toBe("null");
    expect(carry.properties.min_paid_share_7d).toMatchObject({ type: "null" });
  });

  it("states that a simulation's leverage comes only with costs order_books, and fee_bps and slippage_bps only without", () => {
    const schema = body("createSimulation");
    expect(schema.if).toMatchObject({ properties: { costs: { const: "order_books" } }, required: ["costs"] });
    expect(schema.then).toEqual({ not: { anyOf: [{ required: ["fee_bps"] }, { required: ["slippage_bps"] }] } });
    expect(schema.else).toEqual({ not: { required: ["leverage"] } });
  });

  it("states https-only webhook URLs and a non-empty fee change", () => {
    for (const operationId of ["createWebhookEndpoint", "updateWebhookEndpoint"]) {
      const [url] = everywhere(body(operationId), "url");
      expect(url!.pattern).toMatch(/^\^https:/);
      expect(new RegExp(url!.pattern).test("http://example.com/hooks")).toBe(false);
      expect(new RegExp(url!.pattern).test("https://example.com/hooks")).toBe(true);
    }
    expect(body("updateAccountFees").minProperties).toBe(1);
  });

  it("says a malformed If-None-Match is ignored, and allows it", () => {
    const { operation } = operations.find(({ operation }) => operation.operationId === "listOpportunities")!;
    const ifNoneMatch = (operation.parameters as Json[]).find((p) => p.name === "If-None-Match")!;
    expect(ifNoneMatch.description).toContain("is ignored");
    expect(new RegExp(ifNoneMatch.schema.pattern).test("not-an-etag")).toBe(true);
  });
});
