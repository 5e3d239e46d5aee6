// A contract fuzzer driven only by the OpenAPI document the app serves (GET /v1/openapi.json), as a
// third-party one would be: for every operation it generates requests the document allows (path,
// query, headers and body, from their schemas) and sends them to the app in-process. None may be
// refused as invalid (400) unless the refusal is one of the rules the document states in words
// because they depend on state or span fields (an opportunity that is not listed, a closed position,
// a range longer than 31 days: STATED_IN_WORDS); none may fail (5xx); and every answer has a status
// the operation documents and a body valid under that status's documented schema.
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createApiApp } from "@/lib/api/app";
import { OPENAPI_PATH } from "@/lib/api/openapi/openapi-document";
import { createAppServices, type AppServices } from "@/lib/app-services";
import { arbitraryFor, SchemaContext, validationErrors, type JsonSchema } from "@/tests/support/json-schema";
import { fixedDepthSources } from "@/tests/support/market/fixed-depth";
import { testDatabaseForFile } from "@/tests/support/test-database-for-file";
import { createKeyFor, createUser, liveOpportunity, seedLiveCarry, seedLiveOpportunities } from "@/tests/support/api-fixtures";
import { appendEventStatements } from "@/lib/events/append-events";

// FUZZ_RUNS scales the requests per operation (1 = 25 each, well under a minute on 2 cores).
const RUNS_PER_OPERATION = Math.max(1, Math.round(25 * Number(process.env.FUZZ_RUNS ?? 1)));

/**
 * The 400s a request the schemas allow may still get, each a rule the document states in words
 * (an operation's or a field's description): they depend on what exists or on the time, or relate
 * two fields, which JSON Schema cannot say. Matched by operation, field and message, nothing wider.
 */
/** Operations reading history over a `from`–`to` range (lib/api/time-range.ts). */
const RANGED = ["listFundingRates", "listFundingIntervalChanges"];
/** Operations writing a webhook endpoint's URL and event types. */
const WEBHOOK_WRITES = ["createWebhookEndpoint", "updateWebhookEndpoint"];
/** Operations writing an alert rule. */
const ALERT_WRITES = ["createAlertRule", "updateAlertRule"];
const STATED_IN_WORDS: { operations: string[]; field: string; message: RegExp }[] = [
  // What exists: the opportunity set, the markets of the legs, the position's status.
  { operations: ["createSimulation", "createPortfolioPosition"], field: "opportunity_id", message: /^No current opportunity with id "/ },
  { operations: ["createSimulation", "createPortfolioPosition"], field: "long.exchange", message: /^No current market for \S+ on \S+$/ },
  { operations: ["createSimulation", "createPortfolioPosition"], field: "short.exchange", message: /^No current market for \S+ on \S+$/ },
  { operations: ["updatePortfolioPosition"], field: "status", message: /^The position is closed and can no longer be changed$/ },
  { operations: ["closePortfolioPosition"], field: "status", message: /^The position is already closed$/ },
  // A carry id's form (`<asset>-<type>-<long exchange>-<short exchange>`), which the operation's description states.
  { operations: ["getCarryOpportunity", "getCarryOpportunityQuote"], field: "id", message: /^"[^]*" is not a carry opportunity id: expected <asset>-<spot_perp\|perp_spot>-/ },
  // Across fields: two legs on different exchanges, trading the same asset.
  { operations: ["createSimulation", "createPortfolioPosition"], field: "short.exchange", message: /^The legs must be on different exchanges$/ },
  { operations: ["createSimulation", "createPortfolioPosition"], field: "short.symbol", message: /^Both legs must trade the same asset$/ },
  // The time: nothing opened or starting in the future; a range from `from` to `to` of at most 31 days (366 for interval changes).
  { operations: ["createPortfolioPosition"], field: "opened_at", message: /^Must not be in the future$/ },
  { operations: RANGED, field: "from", message: /^Must not be in the future$/ },
  { operations: RANGED, field: "to", message: /^Must not be before from$/ },
  { operations: RANGED, field: "from", message: /^The range may span at most (31|366) days$/ },
  { operations: RANGED, field: "to", message: /^The range may span at most (31|366) days$/ },
  // Events: a cursor older than the events still kept, or beyond the newest one written.
  { operations: ["listEvents"], field: "after", message: /^(This event is older than the events still kept|No event with this id was written yet)/ },
  // A quote: a leverage above what a leg's venue allows at the size asked.
  { operations: ["getOpportunityQuote", "getCarryOpportunityQuote"], field: "leverage", message: /^Must be at most \d+(\.\d+)? for this pair at this size: / },
  // A simulation costed from order books: a size the books hold.
  { operations: ["createSimulation"], field: "notional_usd", message: /^(Must be at most \d+ with costs order_books: |The books hold only )/ },
  { operations: ["createSimulation"], field: "leverage", message: /^Must be at most \d+(\.\d+)? for this pair at this size: / },
  // Usage: a range of whole hours or days, at most 7 days of hours or 90 days, not reversed.
  { operations: ["getUsage"], field: "from", message: /^Must not be in the future$/ },
  { operations: ["getUsage"], field: "to", message: /^Must be after from$/ },
  { operations: ["getUsage"], field: "from", message: /^The range may span at most (7|90) days at (hour|day) granularity$/ },
  { operations: ["getUsage"], field: "to", message: /^The range may span at most (7|90) days at (hour|day) granularity$/ },
  // Webhook endpoints: a URL that parses as an absolute URL to a public host on an allowed port; "*" alone.
  { operations: WEBHOOK_WRITES, field: "url", message: /^(Must be an absolute URL|The URL must |The URL's address is not public |The URL's port must be one of )/ },
  { operations: WEBHOOK_WRITES, field: "event_types", message: /^"\*" \(every type\) stands alone$/ },
  // Alert rules: a change keeps to the conditions of the rule's stored kind; the account's own endpoints of the mode.
  ...["symbol", "exchanges", "min_net_apr", "min_paid_share_7d", "min_positive_hours", "min_open_interest_usd"].map((field) => ({
    operations: ["updateAlertRule"],
    field,
    message: /^A rule of kind \S+ does not use /,
  })),
  { operations: ["updateAlertRule"], field: "notify_on_clear", message: /^A rule of kind \S+ alerts on events and has no condition to clear$/ },
  { operations: ALERT_WRITES, field: "endpoint_ids", message: /^No such webhook endpoint of this mode: / },
];

/** The caps of a plan on what the fuzzing keeps creating: a 403 naming the cap (the key's own permissions do not decide it). */
const PLAN_CAPS: Record<string, RegExp> = {
  createWebhookEndpoint: /^Your plan allows \d+ webhook endpoints/,
  createAlertRule: /^Your plan allows \d+ alert rules/,
  // A `from` older than the plan's history (its `historyDays`).
  listFundingRates: /^The \w+ plan reads \d+ days of history/,
  listFundingIntervalChanges: /^The \w+ plan reads \d+ days of history/,
};

/**
 * Operations whose valid requests are rare among what their schema allows (rules across fields and
 * on what exists), given more runs so that a run without a single success is a chance under 1 in
 * 100,000. The share of successes, measured over six whole runs of this file: a simulation 3% (its
 * `leverage` only with `costs: order_books`, which refuses `fee_bps` and `slippage_bps`, beside legs
 * of two assets), an alert rule's update 11% and creation 9%, a position 13%, a webhook endpoint's
 * update 17%, deletion 25% and creation 30%, an opportunity read 32% (the rest ids that do not
 * exist), the event list 18% (most `after` cursors name no event kept: 36 of 200 in one run; at 25
 runs it went without a success in one CI run). At 25 runs an alert rule's update had gone without
 a success about one run in 17.
 */
const MORE_RUNS: Record<string, number> = {
  createSimulation: 20,
  createPortfolioPosition: 4,
  createAlertRule: 6,
  updateAlertRule: 8,
  updateWebhookEndpoint: 4,
  deleteWebhookEndpoint: 2,
  createWebhookEndpoint: 2,
  getOpportunity: 2,
  listEvents: 3,
};

/**
 * Operations a fuzzer cannot be expected to get past the refusals of: a redelivery names a delivery
 * and the endpoint it belongs to, and the fuzzer draws the two ids apart (from every id it has
 * seen), so almost every request names a pair that does not exist (404). Their successes are
 * tested where the pair is known: tests/integration/webhook-delivery.test.ts.
 */
const PAIRED_IDS = new Set(["redeliverWebhook"]);

type Json = Record<string, unknown>;
interface Parameter {
  name: string;
  in: "path" | "query" | "header";
  required: boolean;
  schema: JsonSchema;
}
interface Operation {
  operationId: string;
  parameters: Parameter[];
  requestBody?: { required: boolean; content: { "application/json": { schema: JsonSchema } } };
  responses: Record<string, Json>;
}
interface DocumentedOperation {
  method: string;
  path: string;
  operation: Operation;
}

const database = testDatabaseForFile();
let services: AppServices;
const app = createApiApp(() => services);
// What the app serves, read before any test runs so each operation gets its own test.
const document = (await (await app.fetch(new Request(`http://localhost${OPENAPI_PATH}`))).json()) as Json;
const context = new SchemaContext(document);
let key: string;

/** Ids that exist, by the collection path they live under (/v1/opportunities, /v1/portfolio/positions…). */
const known = new Map<string, string[]>();
const remember = (collection: string, id: string) => {
  const ids = known.get(collection) ?? [];
  if (!ids.includes(id)) ids.push(id);
  known.set(collection, ids);
};
/** Idempotency keys sent so far, with the request each was first sent with. */
const idempotencyKeys = new Map<string, string>();
const SYMBOLS = ["BTC", "ETH", "SOL", "DOGE", "XRP", "btc", "Eth"];

beforeAll(async () => {
  // Head-room enough that no fuzzed request meets the rate limit (the keys' and the account-wide
  // throttles that read RATE_LIMIT_SCALE from the process); the in-process limiter.
  vi.stubEnv("RATE_LIMIT_SCALE", "100");
  // Quotes read a fixed book for every made-up market: no venue is reached.
  services = createAppServices(
    async () => database.db,
    { ...process.env, RATE_LIMIT_SCALE: "100", REDIS_URL: "", UPSTASH_REDIS_REST_URL: "" },
    { depthSources: fixedDepthSources() },
  );
  await seedLiveOpportunities(database.db, [
    liveOpportunity("BTC", 12.5),
    liveOpportunity("BTC", 9, "okx", "hyperliquid"),
    liveOpportunity("ETH", 30, "okx", "gate"),
    liveOpportunity("SOL", 30, "bybit", "okx"),
    liveOpportunity("DOGE", -4, "hyperliquid", "bitget"),
    liveOpportunity("XRP", 0.25, "binance", "okx"),
  ]);
  // A carry set for GET /v1/carry-opportunities to list, so GET /v1/carry-opportunities/{id} has ids to use.
  await seedLiveCarry(database.db);
  // Events for GET /v1/events to list, so the operations naming one have ids to use.
  const venue = { exchange: "okx", status: "ok" as const, last_success_at: null, error: null };
  await database.db.$transaction(appendEventStatements(database.db, "live", [{ type: "venue.recovered", data: venue }]));
  const user = await createUser(database.db, "desk");
  key = (await createKeyFor(database.db, user.id)).secret;
  // The ids a third party would learn first: what the lists show, and what the documented examples create.
  for (const { method, path, operation } of operations()) {
    const parameters = operation.parameters.filter((p) => p.required);
    if (method === "GET" && parameters.length === 0) await send({ method, path, operation, url: path, headers: {} });
    const example = (operation.requestBody?.content["application/json"] as { example?: unknown } | undefined)?.example;
    if (method === "POST" && parameters.length === 0 && example !== undefined) {
      await send({ method, path, operation, url: path, headers: { "Content-Type": "application/json" }, body: JSON.stringify(example) });
    }
  }
  expect(known.get("/v1/opportunities")?.length, "opportunity ids listed").toBeGreaterThan(0);
  expect(known.get("/v1/portfolio/positions")?.length, "a position created by its example").toBeGreaterThan(0);
}, 120_000);

afterAll(async () => {
  vi.unstubAllEnvs();
  await services?.stopRecorders();
  await new Promise((resolve) => setTimeout(resolve, 200));
});

/** Every operation of the document: reads first, then what creates, changes and (last) removes things. */
function operations(): DocumentedOperation[] {
  const all = Object.entries(document.paths as Record<string, Record<string, Operation>>)
    .flatMap(([path, item]) => Object.entries(item).map(([method, operation]) => ({ method: method.toUpperCase(), path, operation })))
    // Only envelopes: the event stream's answer never ends and the export's is a file (CSV or Parquet);
    // tests/integration/event-stream.test.ts and funding-export.test.ts cover them.
    .filter(({ operation }) => {
      const content = (operation.responses["200"] as { content?: Json } | undefined)?.content;
      return content === undefined || "application/json" in content;
    });
  const rank = ({ method, path }: DocumentedOperation) =>
    method === "GET" ? 0 : method === "POST" && !path.includes("{") ? 1 : method === "PATCH" ? 2 : method === "DELETE" ? 4 : 3;
  return all.map((op, index) => ({ op, index })).sort((a, b) => rank(a.op) - rank(b.op) || a.index - b.index).map(({ op }) => op);
}

/** The collection an operation's resources live under: its path up to its first path parameter. */
const collectionOf = (path: string) => (path.includes("/{") ? path.slice(0, path.indexOf("/{")) : path);

/** Recent instants, as a caller would name them (random ones are mostly in the future, up to 9999). */
function recentInstants(): string[] {
  const day = 86_400_000;
  return [1, 3, 20].flatMap((days) => {
    const instant = new Date(Date.now() - days * day).toISOString();
    return [instant, instant.slice(0, 10), instant.replace(/\.\d+Z$/, "+02:00")];
  });
}

/**
 * Values a third party would have learnt to try (listed ids, symbols that trade, recent dates),
 * mixed in with random ones wherever the schema allows them, so that requests also get past the
 * rules that depend on state and reach the success paths.
 */
const hints = (name: string): readonly unknown[] => {
  if (name === "opportunity_id") return known.get("/v1/opportunities") ?? [];
  if (name === "symbol") return SYMBOLS;
  if (name === "from" || name === "to" || name === "opened_at") return recentInstants();
  return [];
};

interface Generated {
  /** Per path parameter: a value from its schema, and maybe the index of an id that exists. */
  path: Record<string, { generated: string; existing: number | null }>;
  query: Record<string, string>;
  headers: Record<string, string>;
  body?: unknown;
}

function requestArbitrary({ operation }: DocumentedOperation): fc.Arbitrary<Generated> {
  const of = (location: Parameter["in"]) => operation.parameters.filter((p) => p.in === location);
  const record = (parameters: Parameter[], value: (p: Parameter) => fc.Arbitrary<unknown>) =>
    fc.record(Object.fromEntries(parameters.map((p) => [p.name, value(p)])), {
      requiredKeys: parameters.filter((p) => p.required).map((p) => p.name),
    });
  // A path segment cannot carry an empty value or a dot segment (the URL would name another path).
  const segment = (p: Parameter) =>
    fc.record({
      generated: (arbitraryFor(context, p.schema, { hints }, p.name) as fc.Arbitrary<string>).filter((v) => v !== "" && v !== "." && v !== ".."),
      existing: fc.option(fc.nat(), { freq: 3 }),
    });
  const body = operation.requestBody ? arbitraryFor(context, operation.requestBody.content["application/json"].schema, { hints }) : fc.constant(undefined);
  return fc.record({
    path: record(of("path"), segment) as fc.Arbitrary<Generated["path"]>,
    query: record(of("query"), (p) => arbitraryFor(context, p.schema, { hints, asText: true }, p.name)) as fc.Arbitrary<Record<string, string>>,
    headers: record(of("header"), (p) => arbitraryFor(context, p.schema, { hints }, p.name)) as fc.Arbitrary<Record<string, string>>,
    body,
  });
}

interface Sent {
  method: string;
  path: string;
  operation: Operation;
  url: string;
  headers: Record<string, string>;
  body?: string;
}

async function send(request: Sent) {
  const response = await app.fetch(
    new Request(`http://localhost${request.url}`, {
      method: request.method,
      headers: { ...request.headers, Authorization: `Bearer ${key}` },
      ...(request.body !== undefined && { body: request.body }),
    }),
  );
  const text = await response.text();
  // A 304 (If-None-Match naming the current answer) has no body; everything else is JSON.
  const json = (response.status === 304 && text === "" ? undefined : JSON.parse(text)) as { data?: { id?: unknown; items?: { id?: unknown }[] } } | undefined;
  if (response.ok) {
    const collection = collectionOf(request.path);
    if (typeof json?.data?.id === "string") {
      if (request.method === "DELETE") known.set(collection, (known.get(collection) ?? []).filter((id) => id !== json.data!.id));
      else remember(collection, json.data.id);
    }
    for (const item of json?.data?.items ?? []) if (typeof item.id === "string") remember(collection, item.id);
  }
  return { status: response.status, json, text };
}

function materialise(op: DocumentedOperation, generated: Generated): Sent {
  const collection = collectionOf(op.path);
  const url = op.path.replace(/\{([^}]+)\}/g, (_, name: string) => {
    const { generated: value, existing } = generated.path[name]!;
    const ids = known.get(collection) ?? [];
    return encodeURIComponent(existing !== null && ids.length ? ids[existing % ids.length]! : value);
  });
  const query = new URLSearchParams(generated.query).toString();
  const headers: Record<string, string> = { ...generated.headers };
  if (generated.body !== undefined) headers["Content-Type"] = "application/json";
  return {
    method: op.method,
    path: op.path,
    operation: op.operation,
    url: query ? `${url}?${query}` : url,
    headers,
    ...(generated.body !== undefined && { body: JSON.stringify(generated.body) }),
  };
}

const describeRequest = (r: Sent) => `${r.method} ${r.url}${r.headers["Idempotency-Key"] ? ` [Idempotency-Key: ${r.headers["Idempotency-Key"]}]` : ""} ${r.body ?? ""}`;

/** The documented schema of the answer with this status, or undefined when the status is not documented or has no body. */
function responseSchema(operation: Operation, status: number): JsonSchema | undefined {
  const response = operation.responses[String(status)];
  if (!response) return undefined;
  const resolved = context.resolve(response as JsonSchema) as { content?: { "application/json": { schema: JsonSchema } } };
  return resolved.content?.["application/json"].schema;
}

const outcomes = new Map<string, Map<number, number>>();

describe.each(operations().map((op) => ({ name: `${op.method} ${op.path}`, op })))("$name with what the document allows", ({ op }) => {
  it("is never refused as invalid, never fails, and answers as documented", async () => {
    const seen = new Map<number, number>();
    outcomes.set(op.operation.operationId, seen);
    await fc.assert(
      fc.asyncProperty(requestArbitrary(op), async (generated) => {
        const request = materialise(op, generated);
        const where = describeRequest(request);
        const idempotencyKey = request.headers["Idempotency-Key"];
        const fingerprint = `${request.method} ${request.url.split("?")[0]} ${request.body ?? ""}`;
        const conflicting = idempotencyKey !== undefined && idempotencyKeys.has(idempotencyKey) && idempotencyKeys.get(idempotencyKey) !== fingerprint;

        const { status, json, text } = await send(request);
        seen.set(status, (seen.get(status) ?? 0) + 1);
        const answer = `${where}\n→ ${status} ${text.slice(0, 600)}`;
        expect(status, `never a failure: ${answer}`).toBeLessThan(500);
        expect(Object.keys(op.operation.responses), `a documented status: ${answer}`).toContain(String(status));
        // The key has every permission and room in its window: these would mean the test is broken,
        // but for a plan's cap on what the fuzzing creates, a 403 naming the cap.
        const cap = PLAN_CAPS[op.operation.operationId];
        if (!(status === 403 && cap?.test((json as { error?: { message?: string } }).error?.message ?? ""))) expect([401, 403, 429], answer).not.toContain(status);
        if (status === 400) {
          const details = (json as { error?: { details?: { field: string; message: string }[] } }).error?.details ?? [];
          expect(details.length, `a 400 names its fields: ${answer}`).toBeGreaterThan(0);
          for (const { field, message } of details) {
            const rule = STATED_IN_WORDS.find((r) => r.operations.includes(op.operation.operationId) && r.field === field && r.message.test(message));
            expect(rule, `a request the document allows was refused for ${field}: "${message}"\n${answer}`).toBeDefined();
          }
        }
        // A key reused with another request is a conflict, once the request is found valid (the 400s above come first).
        if (conflicting) expect([400, 409], `an Idempotency-Key reused with another request: ${answer}`).toContain(status);
        else expect(status, `409 only for an Idempotency-Key reused with another request: ${answer}`).not.toBe(409);
        if (idempotencyKey !== undefined && !idempotencyKeys.has(idempotencyKey) && status < 300) idempotencyKeys.set(idempotencyKey, fingerprint);

        const schema = responseSchema(op.operation, status);
        if (schema === undefined) {
          expect(text, `no body where the document gives ${status} none: ${answer}`).toBe("");
          return;
        }
        const problems = validationErrors(context, schema, json);
        expect(problems, `the body as documented for ${status}: ${answer}`).toEqual([]);
      }),
      { numRuns: op.operation.operationId in MORE_RUNS ? RUNS_PER_OPERATION * MORE_RUNS[op.operation.operationId]! : RUNS_PER_OPERATION },
    );
    // A fuzzer that never got past the refusals would have proved little.
    const successes = [...seen].filter(([status]) => status < 300).reduce((sum, [, n]) => sum + n, 0);
    if (PAIRED_IDS.has(op.operation.operationId)) return;
    expect(successes, `successes of ${op.operation.operationId}: ${JSON.stringify([...seen])}`).toBeGreaterThan(0);
  }, 60_000);
});

/** The lists a body schema says must not repeat (`uniqueItems`), by property name, in every shape the body may take. */
function uniqueLists(schema: JsonSchema): Map<string, JsonSchema> {
  const found = new Map<string, JsonSchema>();
  const resolved = context.resolve(schema);
  if (typeof resolved === "boolean") return found;
  for (const [name, property] of Object.entries((resolved.properties ?? {}) as Record<string, JsonSchema>)) {
    const sub = context.resolve(property);
    const candidates = typeof sub === "object" && Array.isArray(sub.anyOf) ? (sub.anyOf as JsonSchema[]) : [sub];
    for (const candidate of candidates.map((c) => context.resolve(c))) {
      if (typeof candidate === "object" && candidate.type === "array" && candidate.uniqueItems === true) found.set(name, candidate.items as JsonSchema);
    }
  }
  for (const branch of [...((resolved.oneOf ?? []) as JsonSchema[]), ...((resolved.anyOf ?? []) as JsonSchema[]), ...((resolved.allOf ?? []) as JsonSchema[])]) {
    for (const [name, items] of uniqueLists(branch)) found.set(name, items);
  }
  return found;
}

/** A path for the operation: its parameters filled with ids that exist where any are known. */
function pathFor({ path }: DocumentedOperation): string {
  const ids = known.get(collectionOf(path)) ?? [];
  return path.replace(/\{[^}]+\}/g, () => encodeURIComponent(ids[0] ?? "missing"));
}

const withBodies = operations().filter((op) => op.operation.requestBody !== undefined);
const checkedLists: string[] = [];

describe.each(withBodies.map((op) => ({ name: `${op.method} ${op.path}`, op })))("$name with the edge cases a generator must not miss", ({ op }) => {
  const bodySchema = op.operation.requestBody!.content["application/json"].schema;
  const post = (body: unknown) => send({ method: op.method, path: op.path, operation: op.operation, url: pathFor(op), headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });

  it("answers {} as the document says: 400 where it refuses it, and not refused as invalid where it allows it", async () => {
    const { status, text } = await post({});
    expect(status, `never a failure: ${text}`).toBeLessThan(500);
    if (validationErrors(context, bodySchema, {}).length) expect(status, `{} is refused by the document: ${text}`).toBe(400);
    else expect(status, `{} is allowed by the document: ${text}`).not.toBe(400);
  });

  it("refuses a repeated item in every list the document says is unique, naming the list", async () => {
    const example = (op.operation.requestBody!.content["application/json"] as { example?: Json }).example ?? {};
    for (const [name, items] of uniqueLists(bodySchema)) {
      const [item] = fc.sample(arbitraryFor(context, items, { hints }, name), { numRuns: 1, seed: 7 });
      const body = { ...example, [name]: [item, item] };
      expect(validationErrors(context, bodySchema, body), `the document refuses ${JSON.stringify(body)}`).not.toEqual([]);
      const { status, json, text } = await post(body);
      expect(status, `${op.method} ${op.path} ${JSON.stringify(body)} → ${text}`).toBe(400);
      const fields = ((json as { error: { details?: { field: string }[] } }).error.details ?? []).map((d) => d.field);
      expect(fields, text).toContain(name);
      checkedLists.push(`${op.operation.operationId}.${name}`);
    }
  });
});

describe("the fuzzing", () => {
  it("reached every operation", () => {
    expect([...outcomes.keys()].sort()).toEqual(operations().map((op) => op.operation.operationId).sort());
  });

  it("sent repeats to every list the server refuses them in", () => {
    expect(checkedLists.sort()).toEqual(
      expect.arrayContaining([
        "createAlertRule.endpoint_ids",
        "createAlertRule.exchanges",
        "createWebhookEndpoint.event_types",
        "updateAlertRule.endpoint_ids",
        "updateAlertRule.exchanges",
        "updateWebhookEndpoint.event_types",
      ]),
    );
  });
});
