import { z } from "zod";
import { AppError } from "@/lib/errors";
import type { RequestOrigin } from "@/lib/audit";
import type { Db } from "@/lib/db";
import { TIERS, tierFromDb, type Tier } from "@/lib/keys/permissions";
import { keyEvents } from "@/lib/keys/key-events";
import { billingProvider, type BillingProvider } from "./billing-provider";
import { writeTierChange } from "./record-tier-change";

export const changeTierSchema = z.strictObject({
  tier: z.enum(TIERS, "Tier must be one of free, pro or desk"),
});

export interface TierChange {
  userId: string;
  previousTier: Tier;
  tier: Tier;
  /** false when the account was already on the requested tier: nothing was written or audited. */
  changed: boolean;
  appliedAt: Date;
}

/**
 * Moves an account to another tier, for the account's owner (plan page) and for operators
 * (console) alike; `actor` is whoever asked and is the one the audit trail names, `input.userId` the account moved.
 *
 * With Stripe billing the provider refuses: the tier follows the subscription (lib/billing/stripe/).
 *
 * Keys are deliberately left as they are: what a key may do is its own permissions cut down to
 * the tier's at request time, so a downgrade narrows every key at once and an upgrade back gives
 * them their old reach again.
 */
export async function changeTier(
  db: Db,
  actor: { userId: string },
  input: { userId: string; tier: Tier },
  origin: RequestOrigin,
  provider: BillingProvider = billingProvider(),
): Promise<TierChange> {
  const { userId, tier: newTier } = input;
  const user = await db.user.findUnique({ where: { id: userId }, select: { id: true, email: true, tier: true } });
  if (!user) throw new AppError("NOT_FOUND", "No such user");
  const previousTier = tierFromDb(user.tier);
  if (previousTier === newTier) return { userId, previousTier, tier: newTier, changed: false, appliedAt: new Date() };

  const applied = await provider.changeTier({ id: user.id, email: user.email, tier: previousTier }, newTier, origin);
  if (applied.tier === previousTier) return { userId, previousTier, tier: previousTier, changed: false, appliedAt: applied.appliedAt };
  await writeTierChange(db, { actorId: actor.userId, user, from: previousTier, to: applied.tier }, origin);
  // Every cached key of the account must see the new tier on its very next request.
  await keyEvents().publish({ userId: user.id });
  return { userId, previousTier, tier: applied.tier, changed: true, appliedAt: applied.appliedAt };
}

/** A tier change as the account area's JSON routes answer it. */
export function tierChangeView(change: TierChange) {
  return {
    user_id: change.userId,
    tier: change.tier,
    previous_tier: change.previousTier,
    changed: change.changed,
    applied_at: change.appliedAt.toISOString(),
  };
}
