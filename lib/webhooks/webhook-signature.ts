import { createHmac, randomBytes } from "node:crypto";

/** Prefix of a signing secret, as Standard Webhooks (and Svix, Stripe) spell it. */
export const SECRET_PREFIX = "whsec_";

/** A new signing secret: `whsec_` and the base64 of 32 random bytes. */
export function newSigningSecret(): string {
  return SECRET_PREFIX + randomBytes(32).toString("base64");
}

/** The key a secret stands for: the base64-decoded text after `whsec_`. */
export function secretKey(secret: string): Buffer {
  return Buffer.from(secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret, "base64");
}

/** One `v1,<base64 HMAC-SHA256 of "id.timestamp.body">` signature (Standard Webhooks, "Signature scheme"). */
export function signature(secret: string, id: string, timestampSeconds: number, body: string): string {
  const mac = createHmac("sha256", secretKey(secret)).update(`${id}.${timestampSeconds}.${body}`).digest("base64");
  return `v1,${mac}`;
}

/**
 * The three Standard Webhooks headers of one request. Every secret in force signs (during a roll's
 * overlap, the new and the previous one), space-separated, so a receiver holding either verifies.
 */
export function webhookHeaders(secrets: readonly string[], id: string, timestampSeconds: number, body: string): Record<string, string> {
  return {
    "webhook-id": id,
    "webhook-timestamp": String(timestampSeconds),
    "webhook-signature": secrets.map((secret) => signature(secret, id, timestampSeconds, body)).join(" "),
  };
}
