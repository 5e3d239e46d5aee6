import { appServices } from "@/lib/app-services";
import { getDb } from "@/lib/db";
import type { Tier } from "@/lib/keys/permissions";
import { delayCutoff, isDelayedTier } from "./delay";
import { delayedOpportunities, type DelayedView } from "./delayed-opportunities";

export type ScreenerView = DelayedView & {
  /** True for Free: the set is at least 15 minutes old and so is the history shown with it. */
  delayed: boolean;
  /** The newest settlement time the view's funding history may include. */
  historyUntil: Date;
};

/**
 * The opportunity set a signed-in account sees in the browser: Pro and Desk the live set the API
 * serves (the same in-memory copy), Free the set as it was 15 minutes ago.
 */
export async function screenerView(tier: Tier, now = new Date()): Promise<ScreenerView> {
  const live = await appServices().market("live").opportunities();
  if (!isDelayedTier(tier)) return { status: "ready", snapshot: live, delayed: false, historyUntil: now };
  const view = await delayedOpportunities(await getDb(), live, now);
  return { ...view, delayed: true, historyUntil: delayCutoff(now) };
}
