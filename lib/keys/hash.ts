import { createHash } from "node:crypto";

/**
 * SHA-256 (hex) of the whole key: the only form the database keeps. A fast hash is enough here
 * because the key carries 190 bits of randomness; there is nothing to brute-force as with passwords.
 */
export function hashApiKey(key: string): string {
  return createHash("sha256").update(key, "utf8").digest("hex");
}
