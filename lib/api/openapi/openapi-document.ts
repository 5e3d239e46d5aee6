import { z } from "zod";
import { fundingSettlementSchema } from "@/lib/market/model/funding-settlement";
import { bodyIsOptional } from "../read-json";
import type { Permission } from "@/lib/keys/permissions";
import { servedOpportunitySchema } from "@/lib/market/model/types";
import { PLANS } from "@/lib/plans";
import { ERROR_STATUS, type ErrorCode } from "@/lib/errors";
import { publicEventSchema } from "@/lib/events/event-types";
import { IDEMPOTENCY_HEADER, IDEMPOTENCY_KEY_PATTERN, MAX_IDEMPOTENCY_KEY_LENGTH } from "../idempotency";
import type { ApiRoute } from "../route";
import { LAST_EVENT_ID_HEADER, STREAM_DEFINITION, STREAM_TOKEN_PARAMETER } from "../stream-definition";
import { EXPORT_DEFINITION } from "../export-definition";
import { createdResourceLinks } from "./created-resource-links";
import { eventUnionSchema, typedEventComponents, webhooksSection } from "./webhooks";
import { errorEnvelopeSchema, metaSchema } from "./envelope-schemas";
import { errorCodesOf, errorResponses } from "./error-responses";
import {
  CACHED_READ_HEADERS,
  componentRef as REF,
  NOT_MODIFIED_COUNTS,
  RATE_LIMIT_HEADERS,
  RATE_LIMIT_HEADERS_PRESENCE,
  RATE_LIMIT_WINDOW,
  RESPONSE_HEADERS,
  type JsonObject,
} from "./response-headers";
import { API_TAGS } from "./tags";

export const OPENAPI_PATH = "/v1/openapi.json";

/** Drops what zod writes for a standalone JSON Schema document but an embedded OpenAPI schema must not carry. */
function embedded(schema: JsonObject): JsonObject {
  const { $schema: _dialect, $id: _id, ...rest } = schema;
  return rest;
}

/**
 * A query or path parameter's schema. Parameters arrive as text and are parsed into numbers,
 * dates or upper-case symbols; the document states what a value means after parsing (type, bounds,
 * default) where JSON Schema can say it, and otherwise the text the parser accepts (its `format`
 * and `pattern`: the server checks exactly that pattern, e.g. an instant's year from 2000).
 */
function parameterSchema(field: z.ZodType): JsonObject {
  try {
    return embedded(z.toJSONSchema(field, { io: "output", target: "draft-2020-12" }) as JsonObject);
  } catch {
    return embedded(z.toJSONSchema(field, { io: "input", target: "draft-2020-12" }) as JsonObject);
  }
}

function parameters(schema: z.ZodObject | undefined, location: "query" | "path"): JsonObject[] {
  if (!schema) return [];
  return Object.entries(schema.shape).map(([name, field]) => {
    const { description, ...rest } = parameterSchema(field as z.ZodType);
    const required = location === "path" || !(field as z.ZodType).safeParse(undefined).success;
    return { name, in: location, required, ...(description !== undefined && { description }), schema: rest };
  });
}

/** Hono's `/v1/opportunities/:id` as OpenAPI's `/v1/opportunities/{id}`. */
export function openApiPath(path: string): string {
  return path.replace(/:([A-Za-z_][A-Za-z0-9_]*)/g, "{$1}");
}

function permissionText(permission: Permission | null, onPlansWithout?: Permission): string {
  if (permission === null) return "Any valid key, a Free account's included.";
  const holds = (p: Permission) => PLANS.filter((plan) => (plan.permissions as readonly Permission[]).includes(p));
  const plans = holds(permission).map((plan) => plan.name);
  const text = `Needs the \`${permission}\` permission (${plans.join(", ")})`;
  if (!onPlansWithout) return `${text}.`;
  const others = holds(onPlansWithout).filter((plan) => !plans.includes(plan.name)).map((plan) => plan.name);
  return others.length ? `${text}; on ${others.join(", ")}, \`${onPlansWithout}\`, in both modes.` : `${text}.`;
}

const IDEMPOTENCY_PARAMETER = {
  name: IDEMPOTENCY_HEADER,
  in: "header",
  required: false,
  description:
    "Makes the request safe to retry: a repeat with the same key, method, path and body within 24 hours answers the first " +
    "response's status and `data` (with a new `meta` and the header `Idempotent-Replayed: true`) without doing the work again. " +
    "The same key with another method, path or body is 409 IDEMPOTENCY_CONFLICT. Repeats that arrive while the first is still " +
    "running wait for its response (up to 10 s, then 409). Failed requests are not stored, so a retry runs afresh. " +
    "Keys are per account and key mode; 1 to 255 visible ASCII characters, e.g. a UUID.",
  schema: { type: "string", minLength: 1, maxLength: MAX_IDEMPOTENCY_KEY_LENGTH, pattern: IDEMPOTENCY_KEY_PATTERN.source },
};

const IF_NONE_MATCH_PARAMETER = {
  name: "If-None-Match",
  in: "header",
  required: false,
  description:
    "The ETag of an answer the client kept (or several, comma-separated, or `*`). When it is the current answer's, the request " +
    `is answered 304 Not Modified without a body. ${NOT_MODIFIED_COUNTS} A value that is not \`*\` nor a comma-separated list of ` +
    'entity tags (`"…"` or `W/"…"`, RFC 9110 §13.1.2) is ignored, as RFC 9110 lets a server do: the answer is then the full 200.',
  // Any field value (visible ASCII, spaces and tabs): a malformed one is ignored rather than refused, so the document allows it.
  schema: { type: "string", pattern: "^[\\t\\x20-\\x7E]*$" },
};

/** What a cached read's description adds: what its answer is built from, compression and conditional requests. */
function cachedReadText(route: ApiRoute): string {
  const set = route.cachedOn === "carry" ? "carry set" : "opportunity set";
  return (
    `\n\nThe answer is built once per published ${set} (every ingestion round) and reused until the next, or until the ` +
    "route's description says (a leg or venue turning stale ends it at once): each response " +
    "writes only `meta.timestamp`, `meta.request_id` and its headers. Send `Accept-Encoding: br` or `gzip` for a compressed body " +
    "(1 KB or more); send the ETag back in `If-None-Match` for a 304 without the body while the answer is unchanged."
  );
}

/** The 304 of a cached read: no body, and the headers a 200 would carry that say what the client holds and where its key stands. */
function notModifiedResponse(): JsonObject {
  return {
    description: `Not Modified: the ETag in If-None-Match is the current answer's; the client's copy is still the answer, its legs' \`age_seconds\` aside. No body. ${NOT_MODIFIED_COUNTS}`,
    headers: { "X-Request-Id": REF("headers", "X-Request-Id"), ...CACHED_READ_HEADERS, ...RATE_LIMIT_HEADERS },
  };
}

/** The success answer: its envelope, the headers it always carries and, for a creation, where to find what it created. */
function successResponse(route: ApiRoute, routes: readonly ApiRoute[]): JsonObject {
  const links = createdResourceLinks(route, routes);
  return {
    description: route.location
      ? "Created: the new resource in `data`, its path in `Location`, response metadata in `meta`."
      : "Success: the payload in `data`, response metadata in `meta`.",
    headers: {
      "X-Request-Id": REF("headers", "X-Request-Id"),
      ...RATE_LIMIT_HEADERS,
      ...(route.cached && { ...CACHED_READ_HEADERS, "Content-Encoding": REF("headers", "Content-Encoding") }),
      ...(route.location && { Location: REF("headers", "Location") }),
      ...(route.idempotent && { "Idempotent-Replayed": REF("headers", "Idempotent-Replayed") }),
    },
    content: { "application/json": { schema: REF("schemas", responseSchemaName(route)) } },
    ...(links && { links }),
  };
}

function operation(route: ApiRoute, routes: readonly ApiRoute[]): JsonObject {
  const responses: JsonObject = { [String(route.status ?? 200)]: successResponse(route, routes) };
  if (route.cached) responses["304"] = notModifiedResponse();
  for (const code of errorCodesOf(route)) responses[String(ERROR_STATUS[code])] = REF("responses", code);
  return {
    operationId: route.operationId,
    summary: route.summary,
    description: `${route.description}${route.cached ? cachedReadText(route) : ""}\n\n**Permission:** ${permissionText(route.permission, route.permissionOnPlansWithout)}`,
    tags: [route.tag],
    "x-permission": route.permission,
    parameters: [
      ...parameters(route.params, "path"),
      ...parameters(route.query, "query"),
      ...(route.idempotent ? [IDEMPOTENCY_PARAMETER] : []),
      ...(route.cached ? [IF_NONE_MATCH_PARAMETER] : []),
    ],
    ...(route.body && { requestBody: requestBody(route.body, route.example?.body) }),
    responses,
  };
}

/** What the stream can answer besides its events, as every GET without path parameters. */
const STREAM_ERRORS: ErrorCode[] = ["VALIDATION_ERROR", "UNAUTHORIZED", "FORBIDDEN", "METHOD_NOT_ALLOWED", "RATE_LIMITED", "INTERNAL_ERROR"];

/**
 * GET /v1/stream, described beside the route table's operations: a `text/event-stream` answer whose
 * frames each carry an `Event` (named by `x-event-schema`, since OpenAPI 3.1 has no way to type the
 * items of a stream), and the usual error envelopes.
 */
function streamOperation(): JsonObject {
  const d = STREAM_DEFINITION;
  const responses: JsonObject = {
    "200": {
      description: "The event stream: Server-Sent Events frames, sent as events are written, until the client or the service ends it.",
      headers: { "X-Request-Id": REF("headers", "X-Request-Id"), ...RATE_LIMIT_HEADERS },
      content: {
        "text/event-stream": {
          schema: { type: "string", description: "`id: evt_…`, `event: <type>`, `data: <Event as JSON>` per frame; comments (`: heartbeat`) between." },
          "x-event-schema": REF("schemas", "Event"),
          example: 'retry: 3000\n: connected\n\nid: evt_0000000000000042\nevent: venue.stale\ndata: {"id":"evt_0000000000000042",...}\n\n',
        },
      },
    },
  };
  for (const code of STREAM_ERRORS) responses[String(ERROR_STATUS[code])] = REF("responses", code);
  return {
    operationId: d.operationId,
    summary: d.summary,
    description: `${d.description}\n\n**Permission:** ${permissionText(d.permission)}`,
    tags: [d.tag],
    "x-permission": d.permission,
    parameters: [...parameters(d.query, "query"), STREAM_TOKEN_PARAMETER, LAST_EVENT_ID_HEADER],
    responses,
  };
}

/**
 * GET /v1/exports/funding-rates, described beside the route table's operations: a file in one of
 * two formats (CSV or Parquet, by `format`), written as it is read, and the usual error envelopes.
 */
function exportOperation(): JsonObject {
  const d = EXPORT_DEFINITION;
  const fileHeaders = {
    "X-Request-Id": REF("headers", "X-Request-Id"),
    ...RATE_LIMIT_HEADERS,
    "Content-Disposition": { description: "`attachment` with the file's name, e.g. `funding-rates_binance_BTC_20261101T0000Z_20261108T0000Z.csv`.", schema: { type: "string" } },
    "X-Export-Rows": { description: "How many settlements the file holds.", schema: { type: "integer", minimum: 0 } },
  };
  const responses: JsonObject = {
    "200": {
      description: "The settlements as a file, sent as they are read.",
      headers: fileHeaders,
      content: {
        "text/csv": {
          schema: { type: "string", description: "RFC 4180 CSV with a header record; the columns of GET /v1/funding-rates's settlements." },
          example:
            "exchange,market,symbol,time,funding_rate,funding_interval_hours,apr,source\r\n" +
            "binance,BTC/USDT:USDT,BTC,2026-11-01T08:00:00.000Z,0.0001,8,10.95,observed\r\n",
        },
        "application/vnd.apache.parquet": {
          schema: { type: "string", format: "binary", description: "A Parquet file: the same columns, `time` a UTC timestamp (ms), one row group per batch." },
        },
      },
    },
  };
  for (const code of EXPORT_ERRORS) responses[String(ERROR_STATUS[code])] = REF("responses", code);
  return {
    operationId: d.operationId,
    summary: d.summary,
    description: `${d.description}\n\n**Permission:** ${permissionText(d.permission)}`,
    tags: [d.tag],
    "x-permission": d.permission,
    parameters: parameters(d.query, "query"),
    responses,
  };
}

/** What an export can answer besides its file. */
const EXPORT_ERRORS: ErrorCode[] = ["VALIDATION_ERROR", "UNAUTHORIZED", "FORBIDDEN", "METHOD_NOT_ALLOWED", "RATE_LIMITED", "INTERNAL_ERROR"];

/**
 * A JSON request body as the caller writes it (`io: "input"`: fields with defaults are optional).
 * Rules that span fields are in the schema where JSON Schema can say them (one of two ways to name
 * the legs as `oneOf`, a PATCH's `minProperties`) and otherwise in the field's description (two legs
 * on different exchanges, trading the same asset).
 */
function requestBody(schema: z.ZodType, example: Record<string, unknown> | undefined): JsonObject {
  const json = embedded(z.toJSONSchema(schema, { io: "input", target: "draft-2020-12" }) as JsonObject);
  const optional = bodyIsOptional(schema);
  return {
    required: !optional,
    description: `JSON, sent with \`Content-Type: application/json\`, at most 64 KB.${optional ? " Every field is optional: no body at all reads as `{}`." : ""}`,
    content: { "application/json": { schema: json, ...(example && { example }) } },
  };
}

function responseSchemaName(route: ApiRoute): string {
  return `${route.operationId[0]!.toUpperCase()}${route.operationId.slice(1)}Response`;
}

/** Named schemas: the envelopes and each route's success body, with shared parts as references. */
function componentSchemas(routes: readonly ApiRoute[]): JsonObject {
  const registry = z.registry<{ id: string }>();
  registry.add(metaSchema, { id: "Meta" });
  registry.add(errorEnvelopeSchema, { id: "ErrorEnvelope" });
  // Records several routes share get a name, so clients can type them once.
  registry.add(servedOpportunitySchema, { id: "Opportunity" });
  registry.add(fundingSettlementSchema, { id: "FundingSettlement" });
  registry.add(publicEventSchema, { id: "Event" });
  for (const { name, schema } of typedEventComponents()) registry.add(schema, { id: name });
  for (const route of routes) {
    const meta = route.meta ? metaSchema.extend(route.meta.shape) : metaSchema;
    registry.add(z.object({ data: route.data, meta }), { id: responseSchemaName(route) });
  }
  const { schemas } = z.toJSONSchema(registry, {
    target: "draft-2020-12",
    io: "output",
    uri: (id) => `#/components/schemas/${id}`,
  }) as { schemas: Record<string, JsonObject> };
  // Every reference to an event names `Event`: the typed events' `oneOf`, discriminated by `type`.
  schemas.Event = eventUnionSchema();
  return Object.fromEntries(Object.entries(schemas).map(([name, schema]) => [name, embedded(schema)]));
}

const DESCRIPTION = `Ranked crypto perpetual-futures funding-rate arbitrage opportunities and the market data behind them.

Send \`Authorization: Bearer <API_KEY>\` on every request. \`svc_sk_live_\` keys read live data; \`svc_sk_test_\` keys read a deterministic sandbox market.
Every success is \`{data, meta}\`, every error \`{error: {code, message, retry_after?, details?}, meta}\`; \`meta.request_id\` equals the \`X-Request-Id\` header.
Lists answer \`data: {items, total, limit, offset, has_more}\`. A creation answers 201 with the new resource's path in \`Location\`. Timestamps are ISO 8601 UTC with milliseconds.
Every operation refuses unknown or repeated query parameters (400 VALIDATION_ERROR), so a misspelt filter never widens a result. A path or method that does not exist is answered only once the key is valid (401 before that), then 404 NOT_FOUND, or 405 METHOD_NOT_ALLOWED with \`Allow\`.
Test keys have their own simulations, portfolio, webhook endpoints, alert rules, events and idempotency keys, apart from live ones; \`meta.mode\` says which mode answered.
Any origin may call the API from a browser (\`Access-Control-Allow-Origin: *\`, never with credentials: the key authenticates, not a cookie); preflights are answered without a key, and the rate-limit, \`Retry-After\`, \`X-Request-Id\`, \`Idempotent-Replayed\`, \`Allow\`, \`Location\` and \`ETag\` headers are readable.
The version is the path prefix: /v1 gains fields, operations and event types; a change that would break a client comes under a new prefix.

**Rate limits.** ${RATE_LIMIT_WINDOW} \`X-RateLimit-Limit\`, \`X-RateLimit-Remaining\` and \`X-RateLimit-Reset\` (Unix epoch seconds at which the window ends and the whole limit is back) tell where the key stands; \`RateLimit-Policy\` (\`"default";q=<limit>;w=60\`) and \`RateLimit\` (\`"default";r=<remaining>;t=<seconds until the reset>\`) say the same in the terms of the IETF draft draft-ietf-httpapi-ratelimit-headers. ${RATE_LIMIT_HEADERS_PRESENCE} Over the limit, the answer is 429 RATE_LIMITED with \`Retry-After\` and \`error.retry_after\`: the whole seconds until the window ends, after which the request is admitted.

**Caching, compression and conditional requests.** The market reads (\`GET /v1/opportunities\`, \`GET /v1/opportunities/{id}\`, \`GET /v1/exchanges\`) answer with a strong \`ETag\` (the same until the data changes; the legs' \`age_seconds\` are left out of it, as they move every second: a client keeping a body on a 304 counts them from \`observed_at\`), \`Vary: Accept-Encoding\` and \`Cache-Control: private, no-cache\`. With \`Accept-Encoding: br\` or \`gzip\`, bodies of 1 KB or more come compressed. With the ETag in \`If-None-Match\`, an unchanged answer is 304 Not Modified with the rate-limit headers and no body. ${NOT_MODIFIED_COUNTS}

This document is served without authentication at ${OPENAPI_PATH} and is not itself listed below.`;

/**
 * The OpenAPI 3.1 document of the /v1 API, generated from the routes' own schemas. `origin` is the
 * service's public URL (publicOrigin()), its one `servers` entry and the base of its contact and
 * licence links; every path carries /v1 itself.
 */
export function buildOpenApiDocument(routes: readonly ApiRoute[], origin: string): JsonObject {
  const paths: Record<string, JsonObject> = {};
  for (const route of routes) {
    (paths[openApiPath(route.path)] ??= {})[route.method.toLowerCase()] = operation(route, routes);
  }
  (paths[STREAM_DEFINITION.path] ??= {})[STREAM_DEFINITION.method.toLowerCase()] = streamOperation();
  (paths[EXPORT_DEFINITION.path] ??= {})[EXPORT_DEFINITION.method.toLowerCase()] = exportOperation();
  const used = new Set(routes.map((route) => route.tag));
  return {
    openapi: "3.1.0",
    info: {
      title: "Funding Opportunity Data Service API",
      version: "1.0.0",
      description: DESCRIPTION,
      contact: { name: "Funding Opportunity Data Service", url: `${origin}/docs` },
      license: { name: "Proprietary", url: `${origin}/docs#licence` },
    },
    servers: [{ url: origin, description: "This service, at its configured public URL." }],
    tags: Object.entries(API_TAGS)
      .filter(([name]) => used.has(name as keyof typeof API_TAGS))
      .map(([name, description]) => ({ name, description })),
    security: [{ bearerAuth: [] }],
    paths,
    webhooks: webhooksSection(),
    components: {
      securitySchemes: {
        bearerAuth: {
          type: "http",
          scheme: "bearer",
          description:
            "An API key from Account → API Keys: `svc_sk_live_` + 38 characters for live data, `svc_sk_test_` + 38 for the sandbox.",
        },
      },
      headers: RESPONSE_HEADERS,
      responses: errorResponses(),
      schemas: componentSchemas(routes),
    },
  };
}
