import type { Context } from "hono";
import { z } from "zod";
import { parseAuthorizationHeader } from "@/lib/keys/authorization-header";
import type { Permission } from "@/lib/keys/permissions";
import type { VerifiedKey } from "@/lib/keys/verify-key";
import { rateLimitHeaders } from "@/lib/ratelimit";
import { requestsPerMinute } from "@/lib/tiers";
import { successBody, successBodyText } from "./envelope";
import { ApiError } from "./errors";
import { IDEMPOTENCY_HEADER, parseIdempotencyKey, requestFingerprint, runIdempotent } from "./idempotency";
import { parseQuery } from "./query";
import { readBodyText, readJsonBody } from "./read-json";
import type { ApiServices } from "./services";

export type ApiEnv = {
  Variables: { requestId: string; rateLimitHeaders: Record<string, string>; key: VerifiedKey };
};

const WINDOW_MS = 60_000;
// Routes without parameters still refuse any: a misspelt parameter must not pass unnoticed.
const NO_PARAMETERS = z.strictObject({});

/**
 * Authentication and rate limiting, the first steps of every /v1 request, unknown paths included:
 * missing or malformed keys are refused without touching the database; the limit is counted per
 * key, and its headers ride on every later response, errors and 429s included.
 */
export async function authenticate(c: Context<ApiEnv>, services: ApiServices): Promise<VerifiedKey> {
  const parsed = parseAuthorizationHeader(c.req.header("authorization"));
  if (!parsed.ok) throw new ApiError("UNAUTHORIZED");
  const key = await services.verifier.verify(parsed.key);
  if (!key) throw new ApiError("UNAUTHORIZED");
  c.set("key", key);

  const result = await services.limiter.limit(`key:${key.id}`, requestsPerMinute(key.tier), WINDOW_MS);
  // The wait is measured from when the limiter answered, not from before asking it: a slow store
  // round trip must not inflate `retry_after` by a whole second.
  const now = Date.now();
  const { headers, retryAfter } = rateLimitHeaders(result, now);
  c.set("rateLimitHeaders", headers);
  if (!result.success) throw new ApiError("RATE_LIMITED", undefined, { retryAfter });
  services.lastUsed.touch(key.id, now);
  return key;
}

interface HandlerContext<P, Q, B> {
  c: Context<ApiEnv>;
  key: VerifiedKey;
  /** The path parameters as validated by `options.params`; undefined for routes without any. */
  params: P;
  query: Q;
  /** The JSON body as validated by `options.body`; undefined for routes that take none. */
  body: B;
  services: ApiServices;
}

/** What a handler returns: its data, or (on hot paths) that data's JSON text, already serialised. */
export type HandlerResult = ({ data: unknown } | { dataJson: string }) & {
  meta?: Record<string, unknown>;
  status?: 200 | 201;
};

/**
 * The one wrapper for /v1 routes: authenticate → rate limit → permission → query and body
 * validation → path parameters → handler → envelope (DESIGN.md). A path parameter its schema
 * refuses names nothing that can exist: 404, as an unknown id would be. `permission: null` is for /v1/auth/verify, open to
 * any valid key. A route with a `body` schema reads a JSON body (application/json, at most 64 KB);
 * any problem with it is a 400 before the handler runs, so a refused request changes nothing.
 * An `idempotent` route honours an `Idempotency-Key` header once the request is valid: the same key
 * with the same method, path and body within 24 h replays the first success (lib/api/idempotency.ts).
 */
export function withApiKey<
  S extends z.ZodObject | undefined = undefined,
  B extends z.ZodType | undefined = undefined,
  P extends z.ZodObject | undefined = undefined,
>(
  services: ApiServices,
  options: { permission: Permission | null; query?: S; body?: B; params?: P; idempotent?: boolean },
  handler: (
    context: HandlerContext<
      P extends z.ZodObject ? z.infer<P> : undefined,
      S extends z.ZodObject ? z.infer<S> : undefined,
      B extends z.ZodType ? z.infer<B> : undefined
    >,
  ) => Promise<HandlerResult>,
) {
  return async (c: Context<ApiEnv>) => {
    const key = await authenticate(c, services);
    if (options.permission && !key.permissions.includes(options.permission)) throw new ApiError("FORBIDDEN");
    const parsed = parseQuery(new URL(c.req.url), options.query ?? NO_PARAMETERS);
    const query = (options.query ? parsed : undefined) as S extends z.ZodObject ? z.infer<S> : undefined;
    const idempotencyKey = options.idempotent ? parseIdempotencyKey(c.req.header(IDEMPOTENCY_HEADER)) : undefined;
    let text = "";
    let body: unknown;
    if (options.body) ({ value: body, text } = await readJsonBody(c.req.raw, options.body));
    else if (idempotencyKey !== undefined) text = await readBodyText(c.req.raw);
    const params = options.params ? parsePathParams(c, options.params) : undefined;
    const run = () =>
      handler({
        c,
        key,
        params: params as P extends z.ZodObject ? z.infer<P> : undefined,
        query,
        body: body as B extends z.ZodType ? z.infer<B> : undefined,
        services,
      });
    if (idempotencyKey === undefined) return respond(c, await run());
    const fingerprint = requestFingerprint(c.req.method, c.req.path, text);
    const stored = await runIdempotent(await services.db(), key, idempotencyKey, fingerprint, async () => {
      const result = await run();
      const data = "dataJson" in result ? JSON.parse(result.dataJson) : result.data;
      return { status: result.status ?? 200, data, meta: result.meta };
    });
    if (stored.replayed) c.header("Idempotent-Replayed", "true");
    return respond(c, stored);
  };
}

function parsePathParams(c: Context<ApiEnv>, schema: z.ZodObject) {
  const parsed = schema.safeParse(c.req.param());
  if (!parsed.success) throw new ApiError("NOT_FOUND");
  return parsed.data;
}

function respond(c: Context<ApiEnv>, result: HandlerResult) {
  const status = result.status ?? 200;
  if ("dataJson" in result) {
    const text = successBodyText(result.dataJson, c.get("requestId"), result.meta);
    return c.body(text, status, { ...c.get("rateLimitHeaders"), "Content-Type": "application/json" });
  }
  return c.json(successBody(result.data, c.get("requestId"), result.meta), status, c.get("rateLimitHeaders"));
}
