import { hash } from "node:crypto";

/**
 * SHA-256 (hex) of the whole key: the only form the database keeps. A fast hash is enough here
 * because the key carries 190 bits of randomness; there is nothing to brute-force as with passwords.
 * Every /v1 request hashes its key, so this is the one-shot `crypto.hash`, not a Hash object:
 * about a third of the time.
 */
export function hashApiKey(key: string): string {
  return hash("sha256", key, "hex");
}
