import type { Event } from "./events.js";

/** Why a webhook request was refused: match on `reason`, not on the message. */
export type WebhookVerificationFailure =
  | "MISSING_HEADERS"
  | "INVALID_TIMESTAMP"
  | "TIMESTAMP_TOO_OLD"
  | "TIMESTAMP_TOO_NEW"
  | "INVALID_SECRET"
  | "NO_MATCHING_SIGNATURE"
  | "INVALID_PAYLOAD";

/** A webhook request that is not provably from the service (or is too old to accept): answer it with a 4xx. */
export class WebhookVerificationError extends Error {
  constructor(
    readonly reason: WebhookVerificationFailure,
    message: string,
  ) {
    super(`${reason}: ${message}`);
    this.name = "WebhookVerificationError";
  }
}

export interface VerifyWebhookOptions {
  /** How far `webhook-timestamp` may be from now, either way, in seconds (default 300). */
  toleranceSeconds?: number;
  /** The clock, in milliseconds since the epoch (default Date.now). */
  now?: () => number;
}

/** Request headers as Node (`req.headers`), fetch (`Headers`) or a plain object hold them. */
export type WebhookHeaders = Headers | Record<string, string | string[] | undefined>;

const SECRET_PREFIX = "whsec_";
const encoder = new TextEncoder();

function header(headers: WebhookHeaders, name: string): string | undefined {
  if (typeof (headers as Headers).get === "function") return (headers as Headers).get(name) ?? undefined;
  for (const [key, value] of Object.entries(headers as Record<string, string | string[] | undefined>)) {
    if (key.toLowerCase() === name) return Array.isArray(value) ? value.join(" ") : value;
  }
  return undefined;
}

function base64Bytes(text: string): Uint8Array | null {
  try {
    const binary = atob(text);
    return Uint8Array.from(binary, (c) => c.charCodeAt(0));
  } catch {
    return null;
  }
}

function concat(...parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

/**
 * Checks a webhook request the way the Standard Webhooks specification says and returns its event:
 * `webhook-signature` must hold a `v1,` signature (of several, space-separated, any one) equal to the
 * base64 HMAC-SHA256 of `<webhook-id>.<webhook-timestamp>.<raw body>` keyed with the secret's bytes
 * (the base64 after `whsec_`), and `webhook-timestamp` must be within `toleranceSeconds` of now, so a
 * captured request cannot be replayed later. Comparison is Web Crypto's HMAC verify (constant time).
 *
 * Pass the body exactly as received (the raw text or bytes, not JSON parsed and serialised again).
 * `secret` may be several, e.g. the old and new one while a roll's overlap lasts.
 * Throws WebhookVerificationError.
 */
export async function verifyWebhook(
  body: string | Uint8Array,
  headers: WebhookHeaders,
  secret: string | readonly string[],
  options: VerifyWebhookOptions = {},
): Promise<Event> {
  const id = header(headers, "webhook-id");
  const timestamp = header(headers, "webhook-timestamp");
  const signatures = header(headers, "webhook-signature");
  if (!id || !timestamp || !signatures) {
    throw new WebhookVerificationError("MISSING_HEADERS", "webhook-id, webhook-timestamp and webhook-signature are all required");
  }
  if (!/^\d+$/.test(timestamp.trim())) throw new WebhookVerificationError("INVALID_TIMESTAMP", "webhook-timestamp is not whole seconds");
  const seconds = Number(timestamp.trim());
  const nowSeconds = Math.floor((options.now ?? Date.now)() / 1000);
  const tolerance = options.toleranceSeconds ?? 300;
  if (seconds < nowSeconds - tolerance) throw new WebhookVerificationError("TIMESTAMP_TOO_OLD", `sent at ${seconds}, more than ${tolerance} s ago`);
  if (seconds > nowSeconds + tolerance) throw new WebhookVerificationError("TIMESTAMP_TOO_NEW", `sent at ${seconds}, more than ${tolerance} s ahead`);

  const bodyBytes = typeof body === "string" ? encoder.encode(body) : body;
  const signed = concat(encoder.encode(`${id}.${timestamp.trim()}.`), bodyBytes);
  const candidates = signatures
    .split(" ")
    .filter((s) => s.startsWith("v1,"))
    .map((s) => base64Bytes(s.slice(3)))
    .filter((s): s is Uint8Array => s !== null);
  for (const one of typeof secret === "string" ? [secret] : secret) {
    const keyBytes = base64Bytes(one.startsWith(SECRET_PREFIX) ? one.slice(SECRET_PREFIX.length) : one);
    if (!keyBytes || keyBytes.length === 0) throw new WebhookVerificationError("INVALID_SECRET", "the secret is not whsec_ and base64");
    const key = await crypto.subtle.importKey("raw", keyBytes as BufferSource, { name: "HMAC", hash: "SHA-256" }, false, ["verify"]);
    for (const candidate of candidates) {
      if (await crypto.subtle.verify("HMAC", key, candidate as BufferSource, signed as BufferSource)) return parseEvent(bodyBytes);
    }
  }
  throw new WebhookVerificationError("NO_MATCHING_SIGNATURE", "no v1 signature matches the body with this secret");
}

function parseEvent(body: Uint8Array): Event {
  try {
    return JSON.parse(new TextDecoder().decode(body)) as Event;
  } catch {
    throw new WebhookVerificationError("INVALID_PAYLOAD", "the signed body is not JSON");
  }
}
