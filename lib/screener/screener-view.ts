import { appServices } from "@/lib/app-services";
import { getDb } from "@/lib/db";
import type { Tier } from "@/lib/keys/permissions";
import { historyEnd } from "@/lib/market/model/history-end";
import type { Freshness } from "@/lib/market/model/leg-freshness";
import { delayCutoff, isDelayedTier } from "./delay";
import { delayedOpportunities, type DelayedView } from "./delayed-opportunities";

export type ScreenerView = DelayedView & {
  /** True for Free: the set is at least 15 minutes old and so is the history shown with it. */
  delayed: boolean;
  /** The newest settlement time the view's funding history may include. */
  historyUntil: Date;
  /**
   * The moment legs are judged stale at: now for the live set; for the delayed one the moment it
   * stands for, so a set delayed on purpose is not flagged for its delay, only for what was
   * already stale then.
   */
  freshness: Freshness;
};

/**
 * The opportunity set a tier sees in the browser: Pro and Desk the live set the API serves (the
 * same in-memory copy), Free (and signed-out visitors, shown the Free view) the set as it was 15
 * minutes ago.
 */
export async function screenerView(tier: Tier, now = new Date()): Promise<ScreenerView> {
  const market = appServices().market("live");
  const live = await market.opportunities();
  const judged = (at: Date): Freshness => ({ at: at.getTime(), staleAfterMs: market.venueStaleAfterMs });
  if (!isDelayedTier(tier)) return { status: "ready", snapshot: live, delayed: false, historyUntil: historyEnd(live, now), freshness: judged(now) };
  const view = await delayedOpportunities(await getDb(), live, now);
  const cutoff = delayCutoff(now);
  return { ...view, delayed: true, historyUntil: historyEnd(live, cutoff), freshness: judged(cutoff) };
}
