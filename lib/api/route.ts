import type { Context } from "hono";
import type { z } from "zod";
import type { Actor } from "@/lib/actor";
import type { AppServices } from "@/lib/app-services";
import type { RequestOrigin } from "@/lib/audit";
import { AppError, type ErrorCode } from "@/lib/errors";
import type { VerifiedKey } from "@/lib/keys/verify-key";
import type { ApiTag } from "./openapi/tags";
import type { RouteRule } from "./route-rule";

export type HttpMethod = "GET" | "POST" | "PATCH" | "DELETE";

type Parsed<S> = S extends z.ZodType ? z.output<S> : undefined;

/** What a route's handler is given: who acts, and its input as the route's schemas parsed it. */
export interface RouteInput<Q, B, P> {
  /** Who acts: from the API key on /v1, from the signed-in session when a web page's route runs the same operation (lib/api/session-route.ts). */
  actor: Actor;
  /** The API key itself, for the routes about the key (verify, stream tokens); null under a session. */
  key: VerifiedKey | null;
  /** The query as `query` parsed it; undefined for routes that take no parameters. */
  query: Q;
  /** The JSON body as `body` parsed it; undefined for routes that read none. */
  body: B;
  /** The path parameters as `params` parsed them; undefined for routes without any. */
  params: P;
  services: AppServices;
  /** Who sent the request (X-Real-IP, User-Agent), for the audit trail of account changes. */
  origin: RequestOrigin;
}

/** What a handler returns: its data, or (on hot paths) that data's JSON text, already serialised. */
export type HandlerResult = ({ data: unknown } | { dataJson: string }) & {
  meta?: Record<string, unknown>;
  /**
   * For a `cached` route whose answer also moves with the clock or with data a publish does not
   * replace: epoch ms until which the answer may be reused. Absent: until the next publish.
   */
  validUntil?: number;
  /**
   * For a `cached` route whose data moves with the clock alone (legs' `age_seconds`): the data's
   * JSON with those values left out. The ETag is its hash rather than the data's, so a client
   * polling with If-None-Match gets 304s until something other than the clock changes.
   */
  tagJson?: string;
};

/**
 * One /v1 route, declared once: the app mounts it from `method` and `path`, `withApiKey` runs it
 * (permission, schemas, idempotency, status), and the OpenAPI document (lib/api/openapi/) and the
 * generated clients describe it from the same fields. So a route cannot be served without being
 * documented, and what the document says is what the handler is given.
 */
export interface ApiRoute<Q extends z.ZodObject | undefined = z.ZodObject | undefined, B extends z.ZodType | undefined = z.ZodType | undefined, P extends z.ZodObject | undefined = z.ZodObject | undefined>
  extends RouteRule {
  method: HttpMethod;
  /** Hono path pattern, e.g. /v1/opportunities/:id */
  path: string;
  /** camelCase name of the operation: the OpenAPI operationId and the clients' method name. */
  operationId: string;
  /** One line for the reference. */
  summary: string;
  /** What a caller needs to know beyond the summary (markdown). */
  description: string;
  /** Groups operations in the reference, e.g. "Opportunities" (described in lib/api/openapi/tags.ts). */
  tag: ApiTag;
  // `permission` and `permissionOnPlansWithout` (RouteRule): the one rule of the operation, read by
  // withApiKey for keys and by the web app's session routes alike.
  /** The query's schema; absent when the route accepts no parameters (any parameter is then refused). */
  query?: Q;
  /** The JSON request body's schema; absent when the route reads no body. */
  body?: B;
  /** One schema per `:name` segment of `path`; a value its schema refuses names nothing that exists (404). */
  params?: P;
  /** The `data` of the success envelope, as the handler returns it. */
  data: z.ZodType;
  /** Fields the route adds to `meta` beside `timestamp` and `request_id`. */
  meta?: z.ZodObject;
  /**
   * A request that succeeds (path and query values as sent), for the reference's curl example and
   * the contract tests; needed when the route has path or required query parameters, or a body.
   * `params` values naming a resource another route creates are documented placeholders: the
   * contract tests create the resource first with that route's example (`createdBy`).
   */
  example?: {
    params?: Record<string, string>;
    query?: Record<string, string>;
    body?: Record<string, unknown>;
    /** operationId of the route whose example creates the resource this example reads, by `data.id`. */
    createdBy?: string;
  };
  /**
   * Error codes this route answers beyond those every route may (which lib/api/openapi/error-responses.ts
   * lists), in status order, e.g. VENUE_UNAVAILABLE for a route that waits on an exchange.
   */
  errors?: ErrorCode[];
  /** The route honours an `Idempotency-Key` header (every POST does), documented with the 409 IDEMPOTENCY_CONFLICT answer. */
  idempotent?: boolean;
  /**
   * The answer's `data` carries a secret shown once (and an `id`): a repeat with the same
   * Idempotency-Key answers 409 IDEMPOTENCY_CONFLICT naming the id instead of showing it again.
   */
  showsSecretOnce?: boolean;
  /** HTTP status of success; 200 unless the route creates something (201). */
  status?: 200 | 201;
  /**
   * For a route that creates a resource (status 201): the Hono path that reads it, e.g.
   * /v1/portfolio/positions/:id, whose `:id` is the new `data.id`. The 201 answer carries it as
   * `Location` (lib/api/location.ts), and the document links the answer to every operation under
   * that path, so a generated client or a stateful tester can follow what was created.
   */
  location?: string;
  /**
   * The answer is a function of the key's mode, the query, the path parameters and that mode's
   * published opportunity set (and of the clock only as far as the handler's `validUntil` says),
   * so it is built once per published set and shared by every key of the mode; each response
   * writes only meta's timestamp and request id, the rate-limit headers, and may be compressed or
   * answered 304 Not Modified (lib/api/cached-read.ts). The handler sees the key's `mode` only.
   */
  cached?: boolean;
  /**
   * Which published set a `cached` route's answer is a function of: the opportunity set (default),
   * or the carry set, whose versions move apart from it (the answer is then kept until the next
   * carry set instead).
   */
  cachedOn?: "opportunities" | "carry";
  handler: (input: RouteInput<Parsed<Q>, Parsed<B>, Parsed<P>>) => Promise<HandlerResult>;
}

/** Declares a route, typing its handler's input from its own schemas. */
export function defineRoute<Q extends z.ZodObject | undefined = undefined, B extends z.ZodType | undefined = undefined, P extends z.ZodObject | undefined = undefined>(
  route: ApiRoute<Q, B, P>,
): ApiRoute {
  return route as unknown as ApiRoute;
}

/** A regular expression for a route path, so unknown methods on known paths can be told apart (405). */
export function pathPattern(path: string): RegExp {
  const source = path
    .split("/")
    .map((part) => (part.startsWith(":") ? "[^/]+" : part.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")))
    .join("/");
  return new RegExp(`^${source}$`);
}

/** What an answer built whole needs from the app: the headers it would otherwise add, and whether it may compress. */
export interface WholeAnswers {
  /** The security (and on /v1 the CORS) headers the app puts on every answer. */
  headers: Readonly<Record<string, string>>;
  /** Whether bodies may be sent precompressed; see `ApiAppOptions.precompress`. */
  precompress: boolean;
}

export type ApiEnv = {
  Variables: {
    requestId: string;
    rateLimitHeaders: Record<string, string>;
    key: VerifiedKey;
    /** The matched route as usage counts it, e.g. "GET /v1/opportunities/{id}"; unset on unknown paths. */
    usageRoute: string;
    /** How answers built whole (the cached reads) are sent under this mount. */
    wholeAnswers: WholeAnswers;
    /**
     * Set when the answer was built whole, with every header the app would add (the cached reads):
     * the app's last step leaves it alone. Setting a header on a Response turns its plain header
     * object into a Headers instance, which the node adapter then copies back header by header.
     */
    answeredWhole: boolean;
  };
};

export type ApiContext = Context<ApiEnv>;

/** For the routes about the key itself (verify, stream tokens): a session has none to describe. */
export function requireKey(key: VerifiedKey | null): VerifiedKey {
  if (!key) throw new AppError("UNAUTHORIZED", "This operation needs an API key");
  return key;
}
