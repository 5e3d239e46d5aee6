import { PLANS, requestsPerMinute } from "@/lib/tiers";
import { FAILED_AUTH_LIMIT } from "../failed-auth-throttle";
import { IDEMPOTENCY_HEADER } from "../idempotency";

export type JsonObject = Record<string, unknown>;

/** A reference to a named component, e.g. componentRef("headers", "X-Request-Id"). */
export const componentRef = (kind: string, name: string) => ({ $ref: `#/components/${kind}/${name}` });

const apiPlans = PLANS.filter((plan) => plan.apiAccess);

/** How the /v1 limit counts, in one sentence, for the document's introduction and /docs. */
export const RATE_LIMIT_WINDOW =
  "Each API key has a fixed window of one clock minute: windows start at every whole UTC minute (Unix time a multiple of 60 seconds), " +
  `and a key may make ${apiPlans.map((plan) => `${plan.requestsPerMinute} (${plan.name})`).join(" or ")} requests in each; ` +
  `a Free account's key may make ${requestsPerMinute("free")}, and can call only GET /v1/auth/verify.`;

/** When the X-RateLimit-* headers are sent; every statement about them in the document ends with it. */
export const RATE_LIMIT_HEADERS_PRESENCE =
  "The X-RateLimit-* headers are on every /v1 answer once the key is identified and counted: successes and the 400, 403, 404, 405, " +
  "409 and 429 errors. They are not on a 401 (decided before the limit, with no key identified), nor on the public " +
  "GET /v1/openapi.json, and a 500 may lack them.";

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
      `a Free account's key ${requestsPerMinute("free")}). On a 429 refusing the client's address for failed keys, that address's ` +
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
  "Retry-After": {
    description:
      "Whole seconds until the current window ends (at least 1), the same value as the body's `error.retry_after`: a client that " +
      "waits that long is admitted.",
    required: true,
    schema: { type: "integer", minimum: 1 },
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

/** The three X-RateLimit-* headers, by reference. */
export const RATE_LIMIT_HEADERS: JsonObject = {
  "X-RateLimit-Limit": componentRef("headers", "X-RateLimit-Limit"),
  "X-RateLimit-Remaining": componentRef("headers", "X-RateLimit-Remaining"),
  "X-RateLimit-Reset": componentRef("headers", "X-RateLimit-Reset"),
};
