import { appServices } from "@/lib/app-services";
import type { Tier } from "@/lib/keys/permissions";
import { processSingleton } from "@/lib/singleton";
import { isDelayedTier } from "./delay";
import { CarryHistory, type DelayedCarry } from "./delayed-carry";

export type CarryView = DelayedCarry & {
  /** True for the delayed plan (and signed-out visitors): the set is at least its delay old. */
  delayed: boolean;
};

/**
 * The carry set a tier sees in the browser: Pro and Desk the live set the API serves, the delayed
 * plan (and signed-out visitors) the newest set this process has read that is at least the delay old.
 */
export async function carryView(tier: Tier, now = new Date()): Promise<CarryView> {
  const live = await appServices().market("live").carryOpportunities();
  // Every view remembers the set it read, so the delayed one has sets to choose from.
  const delayed = processSingleton("screener-carry-history", () => new CarryHistory()).delayed(live, now);
  if (!isDelayedTier(tier)) return { status: "ready", snapshot: live, delayed: false };
  return { ...delayed, delayed: true };
}
