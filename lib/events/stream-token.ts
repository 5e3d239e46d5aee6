import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { z } from "zod";
import { KEY_MODES } from "@/lib/keys/mode";
import { venueIdSchema } from "@/lib/market/model/types";
import { eventTypeSchema } from "./event-types";

/**
 * Short-lived stream tokens: what a browser's EventSource, which cannot send an Authorization
 * header, opens GET /v1/stream with (`?token=`). Minted with an API key (POST /v1/stream-tokens),
 * a token names the key, its account and mode, the stream's filters and an expiry, signed with a
 * key derived from NEXTAUTH_SECRET, which every server shares: any server verifies it without the
 * database, and the key itself is still checked (revoked, expired, allowlist) when the stream opens
 * and while it runs. It opens that stream and nothing else.
 */

export const STREAM_TOKEN_PREFIX = "sst_";
export const STREAM_TOKEN_MAX_TTL_SECONDS = 300;
export const STREAM_TOKEN_DEFAULT_TTL_SECONDS = 300;

/** The filters a token fixes, as GET /v1/stream's query would give them. */
export const streamTokenFiltersSchema = z.strictObject({
  exchange: venueIdSchema.optional().describe("Only events about this exchange, as GET /v1/stream's `exchange`."),
  exchanges: z
    .array(venueIdSchema)
    .min(1)
    .optional()
    .describe("Only events within these exchanges, as GET /v1/stream's `exchanges`."),
  min_apr: z.number().min(-1_000_000).max(1_000_000).optional().describe("Only opportunity events with at least this gross `apr`, as GET /v1/stream's `min_apr`."),
  symbol: z
    .string()
    .regex(/^[A-Z0-9]{1,20}$/, "Must be a base asset in capitals, such as BTC")
    .optional()
    .describe("Only events about this base asset, as GET /v1/stream's `symbol`."),
  types: z.array(eventTypeSchema).min(1).optional().describe("Only these event types, as GET /v1/stream's `types`."),
});
export type StreamTokenFilters = z.infer<typeof streamTokenFiltersSchema>;

const claimsSchema = z.strictObject({
  key: z.string(),
  user: z.string(),
  mode: z.enum(KEY_MODES),
  filters: streamTokenFiltersSchema,
  /** Unix epoch seconds after which the token opens nothing. */
  exp: z.number().int(),
});
export type StreamTokenClaims = z.infer<typeof claimsSchema>;

/**
 * The signing key: derived from NEXTAUTH_SECRET (server.ts makes sure there is one, shared by every
 * server of a deployment) rather than the secret itself, so a token's MAC is never a session's.
 * Without it (tests, a bare process) a random key of this process: its tokens open its streams only.
 */
export function streamTokenKey(env: Readonly<Record<string, string | undefined>> = process.env): Buffer {
  const secret = env.NEXTAUTH_SECRET || randomBytes(32).toString("base64url");
  return createHmac("sha256", secret).update("funding-data/v1/stream-token").digest();
}

const mac = (key: Buffer, payload: string) => createHmac("sha256", key).update(payload).digest("base64url");

/** `sst_` + the base64url claims + `.` + their base64url HMAC-SHA256. */
export function mintStreamToken(key: Buffer, claims: StreamTokenClaims): string {
  const payload = Buffer.from(JSON.stringify(claims)).toString("base64url");
  return `${STREAM_TOKEN_PREFIX}${payload}.${mac(key, payload)}`;
}

/** The token's claims, "expired" past its expiry, or null when it is not a token this service signed. */
export function readStreamToken(key: Buffer, token: string, nowMs: number): StreamTokenClaims | "expired" | null {
  if (!token.startsWith(STREAM_TOKEN_PREFIX) || token.length > 4_096) return null;
  const [payload, signature, ...rest] = token.slice(STREAM_TOKEN_PREFIX.length).split(".");
  if (!payload || !signature || rest.length > 0) return null;
  const expected = Buffer.from(mac(key, payload));
  const given = Buffer.from(signature);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(payload, "base64url").toString("utf8"));
  } catch {
    return null;
  }
  const claims = claimsSchema.safeParse(parsed);
  if (!claims.success) return null;
  return claims.data.exp * 1000 <= nowMs ? "expired" : claims.data;
}
