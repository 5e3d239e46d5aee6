import { z } from "zod";
import type { AppServices } from "@/lib/app-services";
import { unauthorized } from "./auth-errors";
import { requestOrigin } from "@/lib/audit";
import { AppError } from "@/lib/errors";
import { parseAuthorizationHeader } from "@/lib/keys/authorization-header";
import { addressNotAllowedMessage } from "@/lib/keys/ip-allowlist";
import type { VerifiedKey } from "@/lib/keys/verify-key";
import { parseQuery } from "@/lib/query-params";
import { DEFAULT_POLICY, rateLimitHeaders } from "@/lib/ratelimit/rate-limit-headers";
import { recordRateLimitDecision } from "@/lib/observability/metrics";
import { setRequestAccount } from "@/lib/observability/request-context";
import { cachedReadQuery, respondFromCache } from "./cached-read";
import { successBody, successBodyText } from "./envelope";
import { assertNotThrottled, failedAuthBucket, recordFailedAuth } from "./failed-auth-throttle";
import { IDEMPOTENCY_HEADER, parseIdempotencyKey, requestFingerprint, runIdempotent } from "./idempotency";
import { readBodyText, readJsonBody } from "./read-json";
import type { ApiContext, ApiRoute, HandlerResult } from "./route";
import { assertAllowed } from "./route-rule";
import { actorFromKey } from "@/lib/actor";

// Routes without parameters still refuse any: a misspelt parameter must not pass unnoticed.
const NO_PARAMETERS = z.strictObject({});

/**
 * Authentication and rate limiting, the first steps of every /v1 request, unknown paths included:
 * missing or malformed keys are refused without touching the database; an address past
 * FAILED_AUTH_LIMIT failed verifications a minute under one key prefix is refused (429) for keys of
 * that prefix without touching it either (lib/api/failed-auth-throttle.ts); a
 * key with an IP allowlist refuses other addresses (403, no rate-limit headers); the limit is
 * counted per key, and its headers ride on every later response, errors and 429s included.
 */
export async function authenticate(c: ApiContext, services: AppServices): Promise<VerifiedKey> {
  const parsed = parseAuthorizationHeader(c.req.header("authorization"));
  if (!parsed.ok) throw unauthorized(parsed.reason);
  // A forged key with a valid checksum costs a lookup: an address sending too many failed ones
  // under one key prefix is refused before the lookup (server.ts sets X-Real-IP from the socket,
  // so a client cannot choose it). Only that bucket is: other keys from the address are looked up
  // as usual, and a key this process already holds as valid is never refused by it.
  const address = c.req.header("x-real-ip") || undefined;
  const bucket = address === undefined ? undefined : failedAuthBucket(address, parsed.key);
  if (!services.verifier.cachedValid(parsed.key)) assertNotThrottled(services.limiter, bucket);
  const key = await services.verifier.verify(parsed.key);
  if (!key) {
    await recordFailedAuth(services.limiter, bucket);
    throw unauthorized("unknown");
  }
  return admitKey(c, services, key, address, bucket);
}

/**
 * What follows a key's verification, whatever credential named it (the Authorization header, a
 * stream token): its IP allowlist, then its rate limit. `bucket` is where a refusal by the allowlist
 * counts as a failed authentication (lib/api/failed-auth-throttle.ts).
 */
export async function admitKey(c: ApiContext, services: AppServices, key: VerifiedKey, address: string | undefined, bucket: string | undefined): Promise<VerifiedKey> {
  // Before the limit and not counted against it: a leaked key tried from elsewhere must not spend
  // its owner's minute. Counted instead as a failed authentication of that address and key, so it
  // cannot be used to hammer the service either (past the limit it is refused like a forger).
  // Nor is it the owner's usage: the key is set on the context only once the address is allowed.
  if (key.ipAllowlist && !key.ipAllowlist.allows(address)) {
    await recordFailedAuth(services.limiter, bucket);
    throw new AppError("FORBIDDEN", addressNotAllowedMessage(address));
  }
  c.set("key", key);
  setRequestAccount(key.userId);

  const result = await services.limiter.limit(`key:${key.id}`, services.requestsPerMinute(key.tier), DEFAULT_POLICY.windowMs);
  recordRateLimitDecision(result.success, key.tier);
  // The wait is measured from when the limiter answered, not from before asking it: a slow store
  // round trip must not inflate `retry_after` by a whole second.
  const now = Date.now();
  const { headers, retryAfter } = rateLimitHeaders(result, now, DEFAULT_POLICY);
  c.set("rateLimitHeaders", headers);
  if (!result.success) throw new AppError("RATE_LIMITED", undefined, { retryAfter });
  services.lastUsed.touch(key.id, now);
  return key;
}

/**
 * The one wrapper for /v1 routes: authenticate → rate limit → permission → query and body
 * validation → path parameters → handler → envelope (docs/ARCHITECTURE.md), all read from the
 * route's one definition. A path parameter its schema refuses names nothing that can exist: 404,
 * as an unknown id would be. `permission: null` is for /v1/auth/verify, open to any valid key.
 * A `cached` route's answer comes from the response cache (lib/api/cached-read.ts) after the same
 * checks. A route with a `body` schema reads a JSON body (application/json, at most 64 KB); any problem
 * with it is a 400 before the handler runs, so a refused request changes nothing. An `idempotent`
 * route honours an `Idempotency-Key` header once the request is valid: the same key with the same
 * method, path and body within 24 h replays the first success (lib/api/idempotency.ts).
 */
export async function withApiKey(route: ApiRoute, c: ApiContext, services: AppServices): Promise<Response> {
  const key = await authenticate(c, services);
  const actor = actorFromKey(key);
  assertAllowed(route, actor);
  // Cached reads take no body and no Idempotency-Key, so their checks end here, in the same order.
  if (route.cached) {
    const query = cachedReadQuery(route, c.req.url, route.query ?? NO_PARAMETERS);
    const params = route.params ? parsePathParams(c, route.params) : undefined;
    return respondFromCache(route, c, services, actor, query, params);
  }
  const parsedQuery = parseQuery(new URL(c.req.url), route.query ?? NO_PARAMETERS);
  const idempotencyKey = route.idempotent ? parseIdempotencyKey(c.req.header(IDEMPOTENCY_HEADER)) : undefined;
  let text = "";
  let body: unknown;
  if (route.body) ({ value: body, text } = await readJsonBody(c.req.raw, route.body));
  else if (idempotencyKey !== undefined) text = await readBodyText(c.req.raw);
  const params = route.params ? parsePathParams(c, route.params) : undefined;
  const status = route.status ?? 200;
  const origin = requestOrigin(c.req.raw.headers);
  const run = () => route.handler({ actor, key, query: route.query ? parsedQuery : undefined, body, params, services, origin });
  if (idempotencyKey === undefined) return respond(c, await run(), status);
  const fingerprint = requestFingerprint(c.req.method, c.req.path, text);
  const stored = await runIdempotent(await services.db(), key, idempotencyKey, fingerprint, async () => {
    const result = await run();
    const data = "dataJson" in result ? JSON.parse(result.dataJson) : result.data;
    return { status, data, meta: result.meta, showsSecretOnce: route.showsSecretOnce };
  });
  if (stored.replayed) c.header("Idempotent-Replayed", "true");
  return respond(c, stored, stored.status);
}

function parsePathParams(c: ApiContext, schema: z.ZodObject): Record<string, unknown> {
  const parsed = schema.safeParse(c.req.param());
  if (!parsed.success) throw new AppError("NOT_FOUND");
  return parsed.data;
}

function respond(c: ApiContext, result: HandlerResult, status: number) {
  const code = status as 200 | 201;
  if ("dataJson" in result) {
    const text = successBodyText(result.dataJson, c.get("requestId"), result.meta);
    return c.body(text, code, { ...c.get("rateLimitHeaders"), "Content-Type": "application/json" });
  }
  return c.json(successBody(result.data, c.get("requestId"), result.meta), code, c.get("rateLimitHeaders"));
}
