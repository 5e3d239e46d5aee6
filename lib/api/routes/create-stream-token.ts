import { z } from "zod";
import {
  mintStreamToken,
  STREAM_TOKEN_DEFAULT_TTL_SECONDS,
  STREAM_TOKEN_MAX_TTL_SECONDS,
  streamTokenFiltersSchema,
} from "@/lib/events/stream-token";
import { KEY_MODES } from "@/lib/keys/mode";
import { defineRoute, requireKey } from "../route";
import { STREAM_DEFINITION } from "../stream-definition";

const bodySchema = streamTokenFiltersSchema.extend({
  ttl_seconds: z
    .number()
    .int()
    .min(10)
    .max(STREAM_TOKEN_MAX_TTL_SECONDS)
    .default(STREAM_TOKEN_DEFAULT_TTL_SECONDS)
    .describe(`How long the token opens a stream, 10 to ${STREAM_TOKEN_MAX_TTL_SECONDS} seconds (default ${STREAM_TOKEN_DEFAULT_TTL_SECONDS}).`),
});

const tokenSchema = z.object({
  token: z.string().describe("Pass as `?token=` to GET /v1/stream, and nowhere else."),
  url: z.string().describe("The stream's path with the token, for `new EventSource(url)` on this service's origin."),
  mode: z.enum(KEY_MODES).describe("The key's mode: the events the stream carries."),
  expires_at: z.iso.datetime().describe("After this a new stream (or a reconnection) needs a new token; a stream already open goes on."),
});

// POST /v1/stream-tokens — a short-lived token a browser's EventSource opens GET /v1/stream with.
export const createStreamTokenRoute = defineRoute({
  method: "POST",
  path: "/v1/stream-tokens",
  operationId: "createStreamToken",
  summary: "Mint a short-lived stream token (for browsers)",
  description:
    "A browser's `EventSource` cannot send an `Authorization` header, so it opens GET /v1/stream with a token instead: " +
    "`new EventSource(\"/v1/stream?token=…\")`. Mint it on your server with the key, and hand only the token to the browser. " +
    "It is scoped to the key's account and mode and to the filters given here (those of GET /v1/stream), opens that stream " +
    "(with `after` or `Last-Event-ID` to resume) and grants nothing else: no other route accepts it. It expires after " +
    "`ttl_seconds`; it stops working at once when the key is revoked or expires, and the key's IP allowlist applies to the " +
    "browser's address. Every field is optional.",
  tag: "Events",
  permission: STREAM_DEFINITION.permission,
  body: bodySchema,
  data: tokenSchema,
  idempotent: true,
  example: { body: { symbol: "BTC", types: ["opportunity.opened", "opportunity.updated"], ttl_seconds: 120 } },
  handler: async ({ key: keyOrNull, body, services }) => {
    const key = requireKey(keyOrNull);
    const { ttl_seconds: ttl, ...filters } = body;
    const exp = Math.floor(Date.now() / 1000) + ttl;
    const token = mintStreamToken(services.streamTokenKey, { key: key.id, user: key.userId, mode: key.mode, filters, exp });
    return {
      data: { token, url: `${STREAM_DEFINITION.path}?token=${token}`, mode: key.mode, expires_at: new Date(exp * 1000).toISOString() },
    };
  },
});
