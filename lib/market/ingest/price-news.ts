// The one rule for when a market's change is worth publishing at once, shared by the stream thread
// (stream-conflation.ts, before anything crosses to the serving thread) and the micro-batch
// publisher (micro-batch-publisher.ts `isNews`, against the published set): the two places that
// hold small price moves back must agree on what a small move is.

/** The prices whose small moves wait for a refresh; every other compared field is news on any change. */
export const PRICE_FIELDS = ["markPrice", "indexPrice"] as const;

type Prices = { markPrice?: number | null; indexPrice?: number | null };

/** Whether a price going from `before` to `after` is news: it appeared, it went, or it moved by `moveBps` or more. */
export function priceMoveIsNews(before: number | null | undefined, after: number | null | undefined, moveBps: number): boolean {
  const from = before ?? null;
  const to = after ?? null;
  if (from === to) return false;
  if (from === null || to === null) return true;
  return Math.abs(to / from - 1) * 10_000 >= moveBps;
}

/**
 * Whether `after` says something `before` did not: any of `newsFields` differs (absent and `null`
 * alike: nothing known), or a price moved as `priceMoveIsNews` counts it.
 */
export function changeIsNews<T extends Prices>(before: T, after: T, newsFields: readonly (keyof T)[], moveBps: number): boolean {
  for (const field of newsFields) if ((before[field] ?? null) !== (after[field] ?? null)) return true;
  for (const field of PRICE_FIELDS) if (priceMoveIsNews(before[field], after[field], moveBps)) return true;
  return false;
}

/**
 * Where in the refresh period a name's turn comes, in [0, 1): spread evenly by name (an asset, a
 * market), the same in every process and thread, so refreshes are staggered rather than one burst.
 */
export function refreshPhase(name: string): number {
  let hash = 2_166_136_261;
  for (let i = 0; i < name.length; i++) hash = Math.imul(hash ^ name.charCodeAt(i), 16_777_619);
  // FNV-1a leaves names that differ in their last letters close together in the high bits: mixed
  // (murmur3's finalizer), `M1`…`M200` spread over the whole period.
  hash = Math.imul(hash ^ (hash >>> 16), 0x85eb_ca6b);
  hash = Math.imul(hash ^ (hash >>> 13), 0xc2b2_ae35);
  hash ^= hash >>> 16;
  return (hash >>> 0) / 2 ** 32;
}

/**
 * Whether a name of phase `phase` had its turn in a period of `periodMs` between `since` (excluded)
 * and `now`. A period of 0 has no turns: what waits for one waits for the next round.
 */
export function refreshTurnCame(phase: number, since: number, now: number, periodMs: number): boolean {
  if (periodMs <= 0) return false;
  return Math.floor(now / periodMs + phase) > Math.floor(since / periodMs + phase);
}
