import { BASE62_ALPHABET, encodeBase62Fixed } from "@/lib/keys/base62";
import { crc32 } from "@/lib/keys/crc32";
import { KEY_PREFIXES, type KeyMode } from "@/lib/keys/mode";

export const RANDOM_LENGTH = 32;
export const CHECKSUM_LENGTH = 6;
export const SECRET_LENGTH = RANDOM_LENGTH + CHECKSUM_LENGTH;
export const KEY_LENGTH = KEY_PREFIXES.live.length + SECRET_LENGTH;
export const DISPLAY_SECRET_CHARS = 8;

// Anchored and fixed-length: no surrounding whitespace, no extra characters, no other prefix.
const KEY_PATTERN = new RegExp(
  `^svc_sk_(live|test)_([${BASE62_ALPHABET}]{${RANDOM_LENGTH}})([${BASE62_ALPHABET}]{${CHECKSUM_LENGTH}})$`,
);

export type ParsedApiKey =
  | { ok: true; mode: KeyMode; key: string }
  | { ok: false; reason: "malformed" | "bad_checksum" };

/**
 * The checksum covers the mode prefix too, so turning a live key into a test key (or back) by
 * editing it fails the checksum instead of landing on a different, plausible key.
 */
export function checksumFor(mode: KeyMode, random: string): string {
  const crc = crc32(new TextEncoder().encode(KEY_PREFIXES[mode] + random));
  return encodeBase62Fixed(crc, CHECKSUM_LENGTH);
}

/**
 * Tells a well-formed key from a typo or a guess without touching the database. Failures carry
 * no part of the input, so they are safe to log.
 */
export function parseApiKey(raw: string): ParsedApiKey {
  // The length test first keeps the regex away from arbitrarily long attacker input.
  if (raw.length !== KEY_LENGTH) return { ok: false, reason: "malformed" };
  const match = KEY_PATTERN.exec(raw);
  if (!match) return { ok: false, reason: "malformed" };
  const mode = match[1] as KeyMode;
  const random = match[2]!;
  const checksum = match[3]!;
  if (checksumFor(mode, random) !== checksum) return { ok: false, reason: "bad_checksum" };
  return { ok: true, mode, key: raw };
}

/**
 * What the account area shows and the database stores to identify a key: the mode prefix and
 * the first 8 secret characters, e.g. `svc_sk_live_Ab3dE9xQ…`. Too little to authenticate with.
 */
export function displayPrefix(key: string): string {
  const match = KEY_PATTERN.exec(key);
  // The message deliberately leaves the argument out: it may be a secret.
  if (!match) throw new TypeError("displayPrefix expects a well-formed API key");
  return `${KEY_PREFIXES[match[1] as KeyMode]}${match[2]!.slice(0, DISPLAY_SECRET_CHARS)}…`;
}
