// Which plan each of the soak's keys has: --mix's Free:Pro:Desk weights turned into whole counts.
import type { Tier } from "@/lib/keys/permissions";

const ORDER: readonly Tier[] = ["free", "pro", "desk"];

/** Free:Pro:Desk weights, e.g. "90:9:1". */
export function parseMix(text: string): Record<Tier, number> {
  const weights = text.split(":").map(Number);
  if (weights.length !== 3 || weights.some((w) => !Number.isFinite(w) || w < 0) || weights.every((w) => w === 0)) {
    throw new Error("--mix must be three non-negative Free:Pro:Desk weights, e.g. 90:9:1");
  }
  const [free, pro, desk] = weights as [number, number, number];
  return { free, pro, desk };
}

/** `count` plans in the proportions of `weights` (largest remainders round up), Free first, then Pro, then Desk. */
export function tiersFor(count: number, weights: Record<Tier, number>): Tier[] {
  const total = ORDER.reduce((n, t) => n + weights[t], 0);
  const exact = ORDER.map((t) => (count * weights[t]) / total);
  const counts = exact.map(Math.floor);
  const short = count - counts.reduce((a, b) => a + b, 0);
  const byRemainder = [0, 1, 2].sort((a, b) => exact[b]! - counts[b]! - (exact[a]! - counts[a]!));
  for (let k = 0; k < short; k++) counts[byRemainder[k]!]!++;
  return ORDER.flatMap((tier, i) => Array<Tier>(counts[i]!).fill(tier));
}
