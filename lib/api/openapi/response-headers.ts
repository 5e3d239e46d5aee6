import { planOf, plansWith } from "@/lib/plans";
import { FAILED_AUTH_LIMIT } from "../failed-auth-throttle";
import { IDEMPOTENCY_HEADER } from "../idempotency";

export type JsonObject = Record<string, unknown>;

/** A reference to a named component, e.g. componentRef("headers", "X-Request-Id"). */
export const componentRef = (kind: string, name: string) => ({ $ref: `#/components/${kind}/${name}` });

const apiPlans = plansWith("api");
const free = planOf("free");

/** How the /v1 limit counts, in one sentence, for the document's introduction and /docs. */
export const RATE_LIMIT_WINDOW =
  "Each API key has a fixed window of one clock minute: windows start at every whole UTC minute (Unix time a multiple of 60 seconds), " +
  `and a key may make ${apiPlans.map((plan) => `${plan.requestsPerMinute} (${plan.name})`).join(" or ")} requests in each; ` +
  `a ${free.name} account's key may make ${free.requestsPerMinute}, and can call only GET /v1/auth/verify.`;

/** When the rate-limit headers are sent; every statement about them in the document ends with it. */
export const RATE_LIMIT_HEADERS_PRESENCE =
  "The rate-limit headers (X-RateLimit-*, RateLimit and RateLimit-Policy) are on every /v1 answer once the key is identified and " +
  "counted: successes, 304 Not Modified and the 400, 403, 404, 405, 409, 429 and 503 errors. They are not on a 401 (decided before the " +
  "limit, with no key identified), nor on a 403 refusing the request's address for the key's IP allowlist (decided before the " +
  "limit too), nor on the public GET /v1/openapi.json, and a 500 may lack them.";

/** Why a 304 counts against the limit, for the document's introduction, the 304 answers and /docs. */
export const NOT_MODIFIED_COUNTS =
  "A conditional request is authenticated and counted like any other, so a 304 uses one request of the minute's limit (GitHub's " +
  "API does not count them; here the answer still costs the key check and the lookup the limit exists to bound, and the limit " +
  "is decided before anything is looked up, so a revoked key is 401 and an exhausted one 429 whatever the request's tag). " +
  "What a 304 saves is the body: its transfer, and parsing it again.";

/** The reusable response headers (`components.headers`); each is `required` where it is referenced. */
export const RESPONSE_HEADERS: Record<string, JsonObject> = {
  "X-Request-Id": {
    description: "Identifier of this request (`req_` + 24 base62 characters), equal to `meta.request_id`.",
    required: true,
    schema: { type: "string", pattern: "^req_[0-9A-Za-z]{24}$" },
  },
  "X-RateLimit-Limit": {
    description:
      `Requests the key may make in each one-minute window (${apiPlans.map((plan) => `${plan.name} ${plan.requestsPerMinute}`).join(", ")}; ` +
      `a ${free.name} account's key ${free.requestsPerMinute}). On a 429 refusing the client's address for failed keys, that address's ` +
      `limit instead (${FAILED_AUTH_LIMIT}). ${RATE_LIMIT_HEADERS_PRESENCE}`,
    required: true,
    schema: { type: "integer", minimum: 1 },
  },
  "X-RateLimit-Remaining": {
    description: `Requests left in the current one-minute window, this one counted; 0 on a 429. ${RATE_LIMIT_HEADERS_PRESENCE}`,
    required: true,
    schema: { type: "integer", minimum: 0 },
  },
  "X-RateLimit-Reset": {
    description:
      "Unix epoch seconds at which the current window ends (a multiple of 60) and the whole limit is available again: a client that " +
      `waits until then is admitted. ${RATE_LIMIT_HEADERS_PRESENCE}`,
    required: true,
    schema: { type: "integer", minimum: 0 },
  },
  RateLimit: {
    description:
      'The key\'s limit as draft-ietf-httpapi-ratelimit-headers says it, e.g. `"default";r=42;t=17`: `r` requests remain in the ' +
      "current window (as X-RateLimit-Remaining) and the whole quota is back in `t` seconds (at X-RateLimit-Reset; the same wait as " +
      "Retry-After on a 429). On a 429 refusing the client's address for failed keys, the policy is `\"failed_auth\"`. " +
      RATE_LIMIT_HEADERS_PRESENCE,
    required: true,
    schema: { type: "string", pattern: '^"[a-z_]+";r=\\d+;t=\\d+$' },
  },
  "RateLimit-Policy": {
    description:
      'The quota policy the RateLimit header reports on, e.g. `"default";q=100;w=60`: `q` requests (as X-RateLimit-Limit) per ' +
      `window of \`w\` seconds, a fixed window of one clock minute. ${RATE_LIMIT_HEADERS_PRESENCE}`,
    required: true,
    schema: { type: "string", pattern: '^"[a-z_]+";q=\\d+;w=\\d+$' },
  },
  "Retry-After": {
    description:
      "Whole seconds until the current window ends (at least 1), the same value as the body's `error.retry_after`: a client that " +
      "waits that long is admitted.",
    required: true,
    schema: { type: "integer", minimum: 1 },
  },
  ETag: {
    description:
      "Strong entity tag of this answer: a hash of everything in the body but `meta.timestamp` and `meta.request_id`, with " +
      "`-gzip` or `-br` added for a compressed body. The same until the data changes (a new opportunity set is published every " +
      "round), on every server; send it back in If-None-Match to get 304 Not Modified without the body.",
    required: true,
    schema: { type: "string", pattern: '^"[A-Za-z0-9_-]+"$' },
  },
  Vary: {
    description: "`Accept-Encoding`: the body is sent compressed (br or gzip) when the request accepts it and it is 1 KB or more.",
    required: true,
    schema: { type: "string", enum: ["Accept-Encoding"] },
  },
  "Cache-Control": {
    description:
      "`private, no-cache`: the answer is the key's own (no shared cache may keep it), and a client that keeps it must ask again " +
      "before using it, which If-None-Match makes cheap.",
    required: true,
    schema: { type: "string", enum: ["private, no-cache"] },
  },
  "Content-Encoding": {
    description:
      "`br` or `gzip` when the body is compressed: when Accept-Encoding accepts one (brotli preferred at equal weight) and the " +
      "body is 1 KB or more. Absent otherwise.",
    required: false,
    schema: { type: "string", enum: ["br", "gzip"] },
  },
  Location: {
    description: "The path of the resource this request created, under the same origin; GET it to read the resource again.",
    required: true,
    schema: { type: "string", format: "uri-reference" },
  },
  "Idempotent-Replayed": {
    description: `\`true\` when this answer replays the first response to the same \`${IDEMPOTENCY_HEADER}\`; absent otherwise.`,
    required: false,
    schema: { type: "string", enum: ["true"] },
  },
};

/** The rate-limit headers, by reference: X-RateLimit-* and the IETF draft's two. */
export const RATE_LIMIT_HEADERS: JsonObject = {
  "X-RateLimit-Limit": componentRef("headers", "X-RateLimit-Limit"),
  "X-RateLimit-Remaining": componentRef("headers", "X-RateLimit-Remaining"),
  "X-RateLimit-Reset": componentRef("headers", "X-RateLimit-Reset"),
  RateLimit: componentRef("headers", "RateLimit"),
  "RateLimit-Policy": componentRef("headers", "RateLimit-Policy"),
};

/** Headers of the cached reads (lib/api/cached-read.ts) on their 200 and 304 answers alike, by reference. */
export const CACHED_READ_HEADERS: JsonObject = {
  ETag: componentRef("headers", "ETag"),
  Vary: componentRef("headers", "Vary"),
  "Cache-Control": componentRef("headers", "Cache-Control"),
};
