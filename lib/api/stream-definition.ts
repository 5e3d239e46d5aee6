import { streamQuery } from "@/lib/events/stream-filter";
import { perPlan } from "@/lib/plans";

/**
 * What GET /v1/stream is, for its handler (lib/api/event-stream.ts) and the OpenAPI document, which
 * describes it beside the route table's operations (docs/ARCHITECTURE.md, "The request path of /v1", says why it is
 * not one of them).
 */
export const STREAM_DEFINITION = {
  method: "GET",
  path: "/v1/stream",
  operationId: "streamEvents",
  summary: "Receive change events live (Server-Sent Events)",
  tag: "Events",
  permission: "opportunities:read",
  query: streamQuery,
  description:
    "The events of GET /v1/events as they are written, over one long-lived `text/event-stream` response (Server-Sent Events: " +
    "use an EventSource, or read the body line by line). Each event is one frame: `id:` the event's `id`, `event:` its `type`, " +
    "`data:` the whole event as JSON (the `Event` schema). The stream opens with `retry: 3000` and a `: connected` comment, " +
    "then sends a `: heartbeat` comment every 15 seconds while nothing else is sent.\n\n" +
    "**Filters.** The filters of GET /v1/opportunities (`exchange`, `exchanges`, `min_apr`, `symbol`) apply to the events they " +
    "concern; an event type a filter says nothing about passes it. `types` keeps only the types listed.\n\n" +
    "**Resuming.** Reconnect with `Last-Event-ID` (an EventSource does it by itself) or `?after=`: the events written since " +
    "are sent first, then the stream goes on live, with no gap and no event twice, while the id is within the 30 days (by default) events " +
    "are kept (older, or beyond the newest event written: 400). Without either, the stream starts with the next event written.\n\n" +
    "**Browsers.** An `EventSource` cannot send an `Authorization` header: mint a short-lived token with the key on your " +
    "server (POST /v1/stream-tokens) and open `/v1/stream?token=…` in the browser; the key itself never reaches it.\n\n" +
    "**Limits.** Opening a stream is one request against the key's rate limit. Streams an account may hold open at once, by " +
    `default: ${perPlan("api", (plan) => plan.streams)}; one more is 429 RATE_LIMITED. The stream ends (a comment, then the end of the body) when the key is ` +
    "revoked, expires or loses the permission, and when the client stops reading (more than 4 MB unsent); reconnect with " +
    "`Last-Event-ID` to continue.",
} as const;

/** A stream token (POST /v1/stream-tokens) in place of the Authorization header, for browsers. */
export const STREAM_TOKEN_PARAMETER = {
  name: "token",
  in: "query",
  required: false,
  description:
    "A stream token from POST /v1/stream-tokens, for an EventSource, which cannot send `Authorization`: send no Authorization " +
    "header then. The token fixes the filters; besides it only `after` may be given. An expired token, or one whose key was " +
    "revoked or expired, is 401.",
  schema: { type: "string", pattern: "^sst_[A-Za-z0-9_-]+\\.[A-Za-z0-9_-]+$" },
} as const;

/** The request header a reconnecting EventSource sends. */
export const LAST_EVENT_ID_HEADER = {
  name: "Last-Event-ID",
  in: "header",
  required: false,
  description: "The `id` of the last event received: the stream resumes after it. Wins over `after`.",
  schema: { type: "string", pattern: "^evt_\\d{16}$" },
} as const;
