import { z } from "zod";
import { fundingSettlementSchema } from "@/lib/market/funding-settlement";
import type { Permission } from "@/lib/keys/permissions";
import { opportunitySchema } from "@/lib/market/types";
import { PLANS } from "@/lib/tiers";
import { DEFAULT_MESSAGES, ERROR_STATUS, type ErrorCode } from "@/lib/errors";
import { FAILED_AUTH_LIMIT } from "../failed-auth-throttle";
import { IDEMPOTENCY_HEADER, IDEMPOTENCY_KEY_PATTERN, MAX_IDEMPOTENCY_KEY_LENGTH } from "../idempotency";
import type { ApiRoute } from "../route";
import { errorEnvelopeSchema, metaSchema } from "./envelope-schemas";

export const OPENAPI_PATH = "/v1/openapi.json";

type JsonObject = Record<string, unknown>;

const REF = (kind: string, name: string) => ({ $ref: `#/components/${kind}/${name}` });

const ERROR_MEANING: Record<ErrorCode, string> = {
  VALIDATION_ERROR:
    "A query parameter is unknown, repeated or invalid, or the JSON body is malformed, too large, not sent as application/json or invalid; `details` names each field.",
  UNAUTHORIZED: "Missing Authorization header, malformed key, unknown, revoked or expired key.",
  FORBIDDEN: "The key's tier or permissions do not include this endpoint (a Free account's keys reach only /v1/auth/verify).",
  NOT_FOUND: "No such resource, or no such path under /v1.",
  METHOD_NOT_ALLOWED: "The path exists but not with this method; the Allow header lists the methods it has.",
  IDEMPOTENCY_CONFLICT: "An Idempotency-Key was reused with a different request, or its first request is still running.",
  PAYLOAD_TOO_LARGE:
    "The request body is over 1 MB: the server refuses it before any route reads it (a JSON body over 64 KB that reaches a route is a 400 VALIDATION_ERROR instead).",
  RATE_LIMITED:
    `The key's requests in the last 60 seconds reached its tier's limit, or the client's address sent more than ${FAILED_AUTH_LIMIT} unknown, revoked or expired keys in the last 60 seconds (every request from it is refused until then); wait \`retry_after\` seconds.`,
  INTERNAL_ERROR: "The service failed; nothing about the cause is revealed. Retrying later may succeed.",
};

const RATE_LIMIT_HEADERS = {
  "X-RateLimit-Limit": REF("headers", "X-RateLimit-Limit"),
  "X-RateLimit-Remaining": REF("headers", "X-RateLimit-Remaining"),
  "X-RateLimit-Reset": REF("headers", "X-RateLimit-Reset"),
};

/**
 * Headers on each error: the rate-limit ones only once the key was counted (so not on 401, which is
 * decided before the limiter, nor on a 500 that may come from anywhere).
 */
function errorHeaders(code: ErrorCode): JsonObject {
  const headers: JsonObject = { "X-Request-Id": REF("headers", "X-Request-Id") };
  if (code === "UNAUTHORIZED" || code === "INTERNAL_ERROR") return headers;
  Object.assign(headers, RATE_LIMIT_HEADERS);
  if (code === "RATE_LIMITED") headers["Retry-After"] = REF("headers", "Retry-After");
  if (code === "METHOD_NOT_ALLOWED") headers.Allow = { description: "The methods the path has.", schema: { type: "string" } };
  return headers;
}

function errorExample(code: ErrorCode) {
  return {
    error: {
      code,
      message: DEFAULT_MESSAGES[code],
      ...(code === "RATE_LIMITED" && { retry_after: 12 }),
      ...(code === "VALIDATION_ERROR" && { details: [{ field: "limit", message: "Must be at most 100" }] }),
    },
    meta: { timestamp: "2026-11-21T19:04:05.123Z", request_id: "req_8ZkT2mQw9XyLp4Rb7Hc1NvDs" },
  };
}

/**
 * The codes an operation can answer besides success. METHOD_NOT_ALLOWED belongs to no operation (it
 * answers a method a path does not have), so it is only among the reusable responses.
 */
function errorCodesOf(route: ApiRoute): ErrorCode[] {
  const codes: ErrorCode[] = ["VALIDATION_ERROR", "UNAUTHORIZED"];
  if (route.permission !== null) codes.push("FORBIDDEN");
  if (route.params) codes.push("NOT_FOUND");
  if (route.idempotent) codes.push("IDEMPOTENCY_CONFLICT");
  codes.push("RATE_LIMITED", "INTERNAL_ERROR");
  return codes;
}

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

function permissionText(permission: Permission | null): string {
  if (permission === null) return "Any valid key, a Free account's included.";
  const plans = PLANS.filter((plan) => (plan.permissions as readonly Permission[]).includes(permission)).map((plan) => plan.name);
  return `Needs the \`${permission}\` permission (${plans.join(", ")}).`;
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

function operation(route: ApiRoute): JsonObject {
  const status = String(route.status ?? 200);
  const responses: JsonObject = {
    [status]: {
      description: "Success: the payload in `data`, response metadata in `meta`.",
      headers: { "X-Request-Id": REF("headers", "X-Request-Id"), ...RATE_LIMIT_HEADERS },
      content: { "application/json": { schema: REF("schemas", responseSchemaName(route)) } },
    },
  };
  for (const code of errorCodesOf(route)) responses[String(ERROR_STATUS[code])] = REF("responses", code);
  return {
    operationId: route.operationId,
    summary: route.summary,
    description: `${route.description}\n\n**Permission:** ${permissionText(route.permission)}`,
    tags: [route.tag],
    "x-permission": route.permission,
    parameters: [
      ...parameters(route.params, "path"),
      ...parameters(route.query, "query"),
      ...(route.idempotent ? [IDEMPOTENCY_PARAMETER] : []),
    ],
    ...(route.body && { requestBody: requestBody(route.body, route.example?.body) }),
    responses,
  };
}

/**
 * A JSON request body as the caller writes it (`io: "input"`: fields with defaults are optional).
 * Rules that span fields are in the schema where JSON Schema can say them (one of two ways to name
 * the legs as `oneOf`, a PATCH's `minProperties`) and otherwise in the field's description (two legs
 * on different exchanges, trading the same asset).
 */
function requestBody(schema: z.ZodType, example: Record<string, unknown> | undefined): JsonObject {
  const json = embedded(z.toJSONSchema(schema, { io: "input", target: "draft-2020-12" }) as JsonObject);
  return {
    required: true,
    description: "JSON, sent with `Content-Type: application/json`, at most 64 KB.",
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
  registry.add(opportunitySchema, { id: "Opportunity" });
  registry.add(fundingSettlementSchema, { id: "FundingSettlement" });
  for (const route of routes) {
    const meta = route.meta ? metaSchema.extend(route.meta.shape) : metaSchema;
    registry.add(z.object({ data: route.data, meta }), { id: responseSchemaName(route) });
  }
  const { schemas } = z.toJSONSchema(registry, {
    target: "draft-2020-12",
    io: "output",
    uri: (id) => `#/components/schemas/${id}`,
  }) as { schemas: Record<string, JsonObject> };
  return Object.fromEntries(Object.entries(schemas).map(([name, schema]) => [name, embedded(schema)]));
}

const DESCRIPTION = `Ranked crypto perpetual-futures funding-rate arbitrage opportunities and the market data behind them.

Send \`Authorization: Bearer <API_KEY>\` on every request. \`svc_sk_live_\` keys read live data; \`svc_sk_test_\` keys read a deterministic sandbox market.
Every success is \`{data, meta}\`, every error \`{error: {code, message, retry_after?, details?}, meta}\`; \`meta.request_id\` equals the \`X-Request-Id\` header.
Lists answer \`data: {items, total, limit, offset, has_more}\`.
Each key may make 100 (Pro) or 1000 (Desk) requests in any sliding 60 seconds; every response carries \`X-RateLimit-Limit\`, \`X-RateLimit-Remaining\` and \`X-RateLimit-Reset\` (Unix epoch seconds), and a 429 adds \`Retry-After\`.
This document is served without authentication at ${OPENAPI_PATH} and is not itself listed below.`;

/** The OpenAPI 3.1 document of the /v1 API, generated from the routes' own schemas. */
export function buildOpenApiDocument(routes: readonly ApiRoute[]): JsonObject {
  const paths: Record<string, JsonObject> = {};
  for (const route of routes) {
    (paths[openApiPath(route.path)] ??= {})[route.method.toLowerCase()] = operation(route);
  }
  const codes = Object.keys(ERROR_STATUS) as ErrorCode[];
  return {
    openapi: "3.1.0",
    info: { title: "Funding Opportunity Data Service API", version: "1.0.0", description: DESCRIPTION },
    tags: [...new Set(routes.map((r) => r.tag))].map((name) => ({ name })),
    security: [{ bearerAuth: [] }],
    paths,
    components: {
      securitySchemes: {
        bearerAuth: {
          type: "http",
          scheme: "bearer",
          description:
            "An API key from Account → API Keys: `svc_sk_live_` + 38 characters for live data, `svc_sk_test_` + 38 for the sandbox.",
        },
      },
      headers: {
        "X-Request-Id": {
          description: "Identifier of this request (`req_` + 24 base62 characters), equal to `meta.request_id`.",
          schema: { type: "string", pattern: "^req_[0-9A-Za-z]{24}$" },
        },
        "X-RateLimit-Limit": {
          description: "Requests the key may make in any sliding 60 seconds (Pro 100, Desk 1000).",
          schema: { type: "integer", minimum: 0 },
        },
        "X-RateLimit-Remaining": {
          description: "Requests left in the current window.",
          schema: { type: "integer", minimum: 0 },
        },
        "X-RateLimit-Reset": {
          description: "Unix epoch seconds at which the window frees up.",
          schema: { type: "integer", minimum: 0 },
        },
        "Retry-After": {
          description: "Seconds to wait before retrying; the same value as the body's `error.retry_after`.",
          schema: { type: "integer", minimum: 1 },
        },
      },
      responses: Object.fromEntries(
        codes.map((code) => [
          code,
          {
            description: `${ERROR_STATUS[code]} ${code}: ${ERROR_MEANING[code]}`,
            headers: errorHeaders(code),
            content: { "application/json": { schema: REF("schemas", "ErrorEnvelope"), example: errorExample(code) } },
          },
        ]),
      ),
      schemas: componentSchemas(routes),
    },
  };
}
