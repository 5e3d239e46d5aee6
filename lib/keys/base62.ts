import { randomBytes } from "node:crypto";

export const BASE62_ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

/** Supplies random bytes; injectable so tests can replay or force a sequence. */
export type RandomSource = (size: number) => Uint8Array;

export const cryptoRandomSource: RandomSource = (size) => randomBytes(size);

// 248 = 4 × 62: bytes at or above it are discarded, so `byte % 62` hits every character exactly
// four times out of the 248 accepted values and no character is favoured.
const REJECTION_LIMIT = 248;

/** `length` characters drawn uniformly from the base62 alphabet. */
export function randomBase62(length: number, random: RandomSource = cryptoRandomSource): string {
  let out = "";
  while (out.length < length) {
    // A little over-asking covers the ~3 % of bytes that rejection throws away.
    const bytes = random(length - out.length + 8);
    for (const byte of bytes) {
      if (byte >= REJECTION_LIMIT) continue;
      out += BASE62_ALPHABET[byte % 62];
      if (out.length === length) break;
    }
  }
  return out;
}

/** Base62 of a non-negative integer, left-padded with "0" to exactly `width` characters. */
export function encodeBase62Fixed(value: number, width: number): string {
  if (!Number.isSafeInteger(value) || value < 0 || value >= 62 ** width) {
    throw new RangeError(`value does not fit in ${width} base62 characters`);
  }
  let out = "";
  let rest = value;
  for (let i = 0; i < width; i++) {
    out = BASE62_ALPHABET[rest % 62] + out;
    rest = Math.floor(rest / 62);
  }
  return out;
}
