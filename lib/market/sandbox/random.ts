/*
 * Stateless randomness: every number the sandbox draws is a pure function of integer keys (seed,
 * asset, venue, stream, minute), so any minute can be generated on its own without replaying the
 * minutes before it, and nothing depends on call order.
 */

/** 32-bit FNV-1a: turns seeds, tickers and venue ids into integer keys, once per use. */
export function hashText(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i += 1) {
    hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
  }
  return hash >>> 0;
}

/** Folds up to four integer keys into one well-spread 32-bit key (murmur3 finaliser per step). */
export function mixKeys(a: number, b: number, c = 0, d = 0): number {
  let hash = fold(0x9e3779b9, a);
  hash = fold(hash, b);
  hash = fold(hash, c);
  return fold(hash, d);
}

/** A uniform number in [0, 1) fixed by its keys: one mulberry32 step over the mixed key. */
export function unitOf(a: number, b: number, c = 0, d = 0): number {
  let t = (mixKeys(a, b, c, d) + 0x6d2b79f5) | 0;
  t = Math.imul(t ^ (t >>> 15), 1 | t);
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
  return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
}

function fold(hash: number, key: number): number {
  let h = Math.imul(hash ^ (key | 0), 0xcc9e2d51);
  h = Math.imul((h << 15) | (h >>> 17), 0x1b873593);
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}
