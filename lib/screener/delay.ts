import type { Tier } from "@/lib/keys/permissions";
import { planOf } from "@/lib/plans";

/** How old the data a plan without live data sees is, at least (the Free plan's promise). */
export const FREE_DELAY_MS = planOf("free").dataDelayMinutes * 60_000;

export function isDelayedTier(tier: Tier): boolean {
  return !planOf(tier).features.liveData;
}

/** The newest observation time a delayed view may show. */
export function delayCutoff(now: Date): Date {
  return new Date(now.getTime() - FREE_DELAY_MS);
}

/**
 * Where a delayed view comes from. The live set itself when its data is already at least
 * FREE_DELAY_MS old — the bundled sample, whose recordings are months old, or a set that stopped
 * updating because ingestion is down — or when nothing was ever published (an empty set delays
 * nothing); otherwise a stored ingestion round from before the cutoff.
 */
export function delayedSource(liveAsOf: string | null, now: Date): "live-set" | "stored-round" {
  if (liveAsOf === null) return "live-set";
  return Date.parse(liveAsOf) <= delayCutoff(now).getTime() ? "live-set" : "stored-round";
}
