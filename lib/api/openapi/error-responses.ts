import { DEFAULT_MESSAGES, ERROR_STATUS, type ErrorCode } from "@/lib/errors";
import { planOf } from "@/lib/plans";
import { missingPermission } from "../auth-errors";
import { FAILED_AUTH_LIMIT } from "../failed-auth-throttle";
import type { ApiRoute } from "../route";
import { componentRef, RATE_LIMIT_HEADERS, RESPONSE_HEADERS, type JsonObject } from "./response-headers";

const ERROR_MEANING: Record<ErrorCode, string> = {
  VALIDATION_ERROR:
    "A query parameter is unknown, repeated or invalid, or the JSON body is malformed, too large, not sent as application/json or invalid; `details` names each field.",
  UNAUTHORIZED:
    "Missing Authorization header, another scheme than Bearer, malformed key, unknown, revoked or expired key: the message starts " +
    "`Invalid or missing API key: ` and says which (e.g. `the Authorization header is missing`, `the key is unknown, revoked or expired`), " +
    "and `WWW-Authenticate` carries the Bearer challenge (RFC 6750). Decided before the rate limit, so it carries no rate-limit headers.",
  FORBIDDEN:
    `The key's tier or permissions do not include this endpoint (a ${planOf("free").name} account's keys reach only /v1/auth/verify): the message names ` +
    `the permission needed and the plans that include it, e.g. \`${missingPermission("write").message}\`. ` +
    "Or the request's " +
    "address is not in the key's IP allowlist (set in the account area), which the message says, naming the address. That refusal " +
    "is decided before the rate limit: it carries no rate-limit headers, is not counted against the key's limit, and counts as a " +
    "failed authentication of the address instead.",
  NOT_FOUND: "No such resource, or no such path under /v1.",
  METHOD_NOT_ALLOWED:
    "The path exists but not with this method (every path answers it for the methods it does not have, after authenticating); the Allow header lists the methods it has.",
  IDEMPOTENCY_CONFLICT: "An Idempotency-Key was reused with a different request, or its first request is still running.",
  PAYLOAD_TOO_LARGE:
    "The request body is over 1 MB: the server refuses it before any route reads it, so the answer has no X-Request-Id or rate-limit headers " +
    "(a JSON body over 64 KB that reaches a route is a 400 VALIDATION_ERROR instead).",
  RATE_LIMITED:
    "The key reached its tier's limit for the current clock minute, or the client's address sent more than " +
    `${FAILED_AUTH_LIMIT} unknown, revoked or expired keys of one key prefix (the mode and first 8 secret characters), or a key whose ` +
    "IP allowlist does not include it, in the current minute (keys of that prefix from that address, an IPv6 one by its /64, are " +
    "refused until that minute ends; other keys are not); " +
    "wait `retry_after` seconds, until X-RateLimit-Reset, and the request is admitted.",
  INTERNAL_ERROR:
    "The service failed; nothing about the cause is revealed. Retrying later may succeed. It carries the rate-limit headers only when the failure came after the key was counted.",
  VENUE_UNAVAILABLE:
    "An exchange whose live data the answer needs (a leg's order book, for a quote) did not send it in time or failed, or none is available " +
    "for that market (the offline sample has no recording of it); the message names the exchange and the market. Nothing older is served " +
    "in its place. Retrying after a few seconds may succeed.",
};

/**
 * Headers on each error, each one always sent: X-Request-Id on everything the app answers; the
 * rate-limit ones once the key was counted (so not on 401, decided before the limiter, nor on a
 * 500 that may come from anywhere); none on 413, which server.ts answers before the app. A 403 has
 * them unless it refuses the address (decided before the limiter too), so there they are optional.
 */
const OPTIONAL_RATE_LIMIT_HEADERS: JsonObject = Object.fromEntries(
  Object.keys(RATE_LIMIT_HEADERS).map((name) => [name, { ...RESPONSE_HEADERS[name], required: false }]),
);

function errorHeaders(code: ErrorCode): JsonObject {
  if (code === "PAYLOAD_TOO_LARGE") return {};
  const headers: JsonObject = { "X-Request-Id": componentRef("headers", "X-Request-Id") };
  if (code === "UNAUTHORIZED") {
    headers["WWW-Authenticate"] = {
      description:
        'The Bearer challenge of RFC 6750: `Bearer` when no bearer token was sent, `Bearer error="invalid_token", error_description="…"` when one was.',
      required: true,
      schema: { type: "string" },
    };
  }
  if (code === "UNAUTHORIZED" || code === "INTERNAL_ERROR") return headers;
  Object.assign(headers, code === "FORBIDDEN" ? OPTIONAL_RATE_LIMIT_HEADERS : RATE_LIMIT_HEADERS);
  if (code === "RATE_LIMITED") headers["Retry-After"] = componentRef("headers", "Retry-After");
  if (code === "METHOD_NOT_ALLOWED") {
    headers.Allow = { description: "The methods the path has, e.g. `GET, POST`.", required: true, schema: { type: "string" } };
  }
  return headers;
}

function errorExample(code: ErrorCode) {
  return {
    error: {
      code,
      message: DEFAULT_MESSAGES[code],
      ...(code === "RATE_LIMITED" && { retry_after: 12 }),
      ...(code === "VALIDATION_ERROR" && { details: [{ field: "limit", message: "Must be at most 100" }] }),
      ...(code === "VENUE_UNAVAILABLE" && { message: "okx did not send the order book of BTC/USDT:USDT within 3000 ms" }),
      ...(code === "UNAUTHORIZED" && { message: `${DEFAULT_MESSAGES.UNAUTHORIZED}: the Authorization header is missing` }),
      ...(code === "FORBIDDEN" && { message: missingPermission("write").message }),
    },
    meta: { timestamp: "2026-11-21T19:04:05.123Z", request_id: "req_8ZkT2mQw9XyLp4Rb7Hc1NvDs" },
  };
}

/** Every error code as a reusable response (`components.responses`), named by its code. */
export function errorResponses(): JsonObject {
  const codes = Object.keys(ERROR_STATUS) as ErrorCode[];
  return Object.fromEntries(
    codes.map((code) => [
      code,
      {
        description: `${ERROR_STATUS[code]} ${code}: ${ERROR_MEANING[code]}`,
        headers: errorHeaders(code),
        content: { "application/json": { schema: componentRef("schemas", "ErrorEnvelope"), example: errorExample(code) } },
      },
    ]),
  );
}

/**
 * The codes an operation can answer besides success, in status order. METHOD_NOT_ALLOWED is the
 * path's answer to a method it lacks rather than the operation's; it is listed on every operation
 * because OpenAPI has nowhere else to say it (a path item has no responses), so that generated
 * clients and linters see it used. A body over 1 MB (413) matters to the operations that take one;
 * a route's own `errors` (503 VENUE_UNAVAILABLE for a quote) come last.
 * Every operation can be 403: a route open to any key still refuses an address outside the key's
 * IP allowlist.
 */
export function errorCodesOf(route: ApiRoute): ErrorCode[] {
  const codes: ErrorCode[] = ["VALIDATION_ERROR", "UNAUTHORIZED", "FORBIDDEN"];
  if (route.params) codes.push("NOT_FOUND");
  codes.push("METHOD_NOT_ALLOWED");
  if (route.idempotent) codes.push("IDEMPOTENCY_CONFLICT");
  if (route.body) codes.push("PAYLOAD_TOO_LARGE");
  codes.push("RATE_LIMITED", "INTERNAL_ERROR", ...(route.errors ?? []));
  return codes;
}
