import type { z } from "zod";
import type { AppServices } from "@/lib/app-services";
import type { Actor } from "@/lib/actor";
import { parseQuery } from "@/lib/query-params";
import { negotiateEncoding } from "@/lib/response-cache/accept-encoding";
import type { CachedBody } from "@/lib/response-cache/cached-body";
import { ifNoneMatchMatches, type ContentCoding } from "@/lib/response-cache/entity-tag";
import { envelopeAround, responseMeta } from "./envelope";
import type { ApiContext, ApiRoute } from "./route";

/**
 * Headers of every cached answer, 200 and 304 alike. The body depends on Accept-Encoding; the
 * answer is per key (never for a shared cache) and may be kept by the client, which must ask again
 * each time, with If-None-Match, and gets a 304 without the body while it is current.
 */
const CACHED_HEADERS = { Vary: "Accept-Encoding", "Cache-Control": "private, no-cache" };

/** A cached read's query: as parsed (undefined for a route without parameters), and as cache-key text. */
export interface CachedReadQuery {
  value: Record<string, unknown> | undefined;
  text: string;
}

/** Fields of the served data that move with the clock alone: ages counted from a time the data also gives. */
const CLOCK_FIELDS = new Set(["age_seconds", "data_age_seconds", "last_message_age_seconds"]);

/** `data`'s JSON without the fields that move with the clock alone, for `HandlerResult.tagJson`. */
export function jsonWithoutClock(data: unknown): string {
  return JSON.stringify(data, (name, value: unknown) => (CLOCK_FIELDS.has(name) ? undefined : value));
}

/** Query strings longer than this are parsed every time rather than remembered. */
const REMEMBERED_QUERY_CHARS = 256;
/** Query strings remembered per route; past it the memory starts afresh. */
const REMEMBERED_QUERIES = 1_000;
const rememberedQueries = new WeakMap<ApiRoute, Map<string, CachedReadQuery>>();

/**
 * A cached read's query, validated exactly as `parseQuery` does (the same 400s, thrown every time)
 * and normalised: the parsed value, defaults filled in, as text for the cache key. A query string
 * that passed once passes again and parses the same, so the result is remembered by the raw
 * string (frozen, as requests share it): a poller repeating one query does not parse it again.
 */
export function cachedReadQuery(route: ApiRoute, url: string, schema: z.ZodObject): CachedReadQuery {
  const at = url.indexOf("?");
  const search = at === -1 ? "" : url.slice(at);
  let remembered = rememberedQueries.get(route);
  const known = remembered?.get(search);
  if (known) return known;
  const parsed = parseQuery(new URL(url), schema);
  const value = route.query ? Object.freeze(parsed) : undefined;
  const query = { value, text: value === undefined ? "" : JSON.stringify(value) };
  if (search.length <= REMEMBERED_QUERY_CHARS) {
    if (!remembered) rememberedQueries.set(route, (remembered = new Map()));
    if (remembered.size >= REMEMBERED_QUERIES) remembered.clear();
    remembered.set(search, query);
  }
  return query;
}

/**
 * A `cached` route's answer (docs/decisions/response-cache-and-etags.md): by the time this runs, `withApiKey` has
 * authenticated the key, counted it against its limit, checked its permission and validated the
 * query and path exactly as for any route, so a revoked key is 401 and an over-limit one 429 here
 * as everywhere. The answer's data is then looked up by (key mode, operation, normalised query and
 * path parameters, that mode's published set: `route.cachedOn`) and built only when missing; each response writes
 * meta's timestamp and request id and its headers, and either sends the body (compressed when the
 * client accepts br or gzip, the body is 1 KB or more and the mount allows it: not under Next, see
 * `ApiAppOptions.precompress`) or, when If-None-Match names its ETag, answers 304 with the
 * rate-limit headers and no body. A 304 counts against the limit like any request: it was
 * authenticated and counted before anything was looked up.
 */
export async function respondFromCache(
  route: ApiRoute,
  c: ApiContext,
  services: AppServices,
  actor: Actor,
  query: CachedReadQuery,
  params: Record<string, unknown> | undefined,
): Promise<Response> {
  const market = services.market(actor.mode);
  // Each set is its own scope: a new carry set retires the carry answers only, and the reverse.
  const [scope, version] = route.cachedOn === "carry" ? [`${actor.mode}:carry`, await market.carryOpportunities()] : [actor.mode, await market.opportunities()];
  const address = {
    scope,
    version,
    key: `${route.operationId}\n${params === undefined ? "" : JSON.stringify(params)}\n${query.text}`,
  };
  const cache = services.responseCache;
  const body = cache.peek(address) ?? (await cache.get(address, () => build(route, services, actor, query.value, params)));

  const requestId = c.get("requestId");
  const whole = c.get("wholeAnswers");
  const tail = body.tail(responseMeta(new Date().toISOString(), requestId));
  const wanted = whole.precompress ? negotiateEncoding(c.req.header("accept-encoding")) : "identity";
  const coding: ContentCoding = wanted !== "identity" && body.compressible(tail) ? wanted : "identity";
  const etag = body.tag(coding);
  // One plain object, never a Headers instance: the node adapter writes it as it is.
  const headers: Record<string, string> = {
    ...whole.headers,
    ...CACHED_HEADERS,
    "X-Request-Id": requestId,
    ...c.get("rateLimitHeaders"),
    ETag: etag,
  };
  if (ifNoneMatchMatches(c.req.header("if-none-match"), etag)) {
    c.set("answeredWhole", true);
    return new Response(null, { status: 304, headers });
  }
  headers["Content-Type"] = "application/json";
  if (coding !== "identity") headers["Content-Encoding"] = coding;
  const bytes = await encode(body, coding, tail);
  c.set("answeredWhole", true);
  return new Response(bytes, { status: 200, headers });
}

async function encode(body: CachedBody, coding: ContentCoding, tail: Buffer): Promise<Uint8Array<ArrayBuffer>> {
  let bytes: Buffer;
  if (coding === "identity") bytes = body.identity(tail);
  else bytes = (body.ready(coding) ?? (await body.precompressed(coding))).withTail(tail);
  // A Buffer is a Uint8Array over a plain ArrayBuffer (never a shared one): what Response takes.
  return bytes as Uint8Array<ArrayBuffer>;
}

// A cached answer is shared by every caller of its mode, so no one caller's address reaches its handler.
const SHARED_ORIGIN = { ip: null, userAgent: null };

/** Runs the handler once for an answer the cache does not hold, and splits its envelope for reuse. */
async function build(route: ApiRoute, services: AppServices, actor: Actor, query: Record<string, unknown> | undefined, params: Record<string, unknown> | undefined) {
  const result = await route.handler({ actor: modeOnly(route, actor), key: null, query, body: undefined, params, services, origin: SHARED_ORIGIN });
  const dataJson = "dataJson" in result ? result.dataJson : JSON.stringify(result.data);
  return { ...envelopeAround(dataJson, result.meta), validUntil: result.validUntil, tagSource: result.tagJson };
}

/**
 * The actor as a cached route's handler may see it: its mode and nothing else, since the answer is
 * shared by every key of that mode. Reading anything else is a programming error, caught the
 * first time the route builds an answer rather than by one account seeing another's data.
 */
function modeOnly(route: ApiRoute, actor: Actor): Actor {
  return new Proxy(actor, {
    get(target, property) {
      if (property === "mode") return target.mode;
      throw new Error(`${route.operationId} is cached, so its answer may depend on actor.mode only, not actor.${String(property)}`);
    },
  });
}
