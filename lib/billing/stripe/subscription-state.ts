import type Stripe from "stripe";
import type { Tier } from "@/lib/keys/permissions";
import { tierOfPrice, type PaidTier, type StripeConfig } from "./stripe-config";

/** What the service keeps of one Stripe subscription. */
export interface SubscriptionSnapshot {
  id: string;
  status: string;
  priceId: string | null;
  /** The tier its price is sold as; null for a price this service does not sell. */
  tier: PaidTier | null;
  currentPeriodEnd: Date | null;
  cancelAt: Date | null;
  cancelAtPeriodEnd: boolean;
  created: Date;
}

const seconds = (value: number | null | undefined) => (value === null || value === undefined ? null : new Date(value * 1000));

/** The snapshot of a subscription object as Stripe's API or a webhook sends it. */
export function snapshotOf(subscription: Stripe.Subscription, config: Pick<StripeConfig, "prices">): SubscriptionSnapshot {
  const items = subscription.items?.data ?? [];
  // The item this service sells; the period end lives on items since API version 2025-03-31.
  const item = items.find((candidate) => tierOfPrice(config, candidate.price?.id)) ?? items[0];
  const priceId = item?.price?.id ?? null;
  return {
    id: subscription.id,
    status: subscription.status,
    priceId,
    tier: tierOfPrice(config, priceId),
    currentPeriodEnd: seconds(item?.current_period_end),
    cancelAt: seconds(subscription.cancel_at),
    cancelAtPeriodEnd: subscription.cancel_at_period_end,
    created: new Date(subscription.created * 1000),
  };
}

/**
 * Whether a subscription pays for its tier at `now`: active and trialing do; past_due does for
 * `graceMs` after the service first saw it past_due (Stripe is still retrying the payment);
 * every other status (canceled, unpaid, incomplete, incomplete_expired, paused) does not.
 */
export function grantsTier(status: string, tier: PaidTier | null, pastDueSince: Date | null, now: Date, graceMs: number): boolean {
  if (!tier) return false;
  if (status === "active" || status === "trialing") return true;
  if (status === "past_due") return pastDueSince !== null && now.getTime() < pastDueSince.getTime() + graceMs;
  return false;
}

/** Statuses after which a subscription never grants again. */
const ENDED = new Set(["canceled", "incomplete_expired"]);

/**
 * Whether a stored subscription status is one Stripe may still bill (past_due, unpaid, incomplete
 * and paused included): an account with one must not start a second subscription.
 */
export function stillRunning(status: string | null): boolean {
  return status !== null && !ENDED.has(status);
}

/** Statuses under which Stripe charges, or will charge again, without the customer doing anything. */
const BILLING = new Set(["active", "trialing", "past_due", "unpaid", "paused"]);

/**
 * The subscriptions of one customer besides the one the account follows that Stripe would go on
 * billing: two checkouts paid in two tabs, a subscription added in the Dashboard. `incomplete` is
 * not among them: nothing was paid and Stripe ends it within a day.
 */
export function extraSubscriptions(subscriptions: readonly SubscriptionSnapshot[], followedId: string | null): SubscriptionSnapshot[] {
  return subscriptions.filter((snapshot) => snapshot.id !== followedId && BILLING.has(snapshot.status));
}

export interface CustomerState {
  /** The subscription the account follows and the plan page shows; null when the customer has none. */
  subscription: SubscriptionSnapshot | null;
  pastDueSince: Date | null;
  tier: Tier;
}

/**
 * The account's state from every subscription of its Stripe customer, as read at `readAt`. It
 * follows the subscription granting the highest tier; when none grants, the newest one still
 * running, else the newest (what ended). `previous` is what was stored, so a past_due
 * subscription keeps the moment it was first seen so; `observedAt` is when this state was
 * reported (a webhook event's creation), which starts a new grace period.
 */
export function customerState(
  subscriptions: readonly SubscriptionSnapshot[],
  previous: { subscriptionId: string | null; pastDueSince: Date | null } | null,
  readAt: Date,
  observedAt: Date,
  graceMs: number,
): CustomerState {
  const pastDueSinceOf = (snapshot: SubscriptionSnapshot) => {
    if (snapshot.status !== "past_due") return null;
    if (previous?.subscriptionId === snapshot.id && previous.pastDueSince) return previous.pastDueSince;
    return observedAt;
  };
  const ranked = subscriptions
    .map((snapshot) => {
      const pastDueSince = pastDueSinceOf(snapshot);
      const granted: Tier = grantsTier(snapshot.status, snapshot.tier, pastDueSince, readAt, graceMs) ? snapshot.tier! : "free";
      return { snapshot, pastDueSince, granted };
    })
    .sort(
      (a, b) =>
        TIER_RANK[b.granted] - TIER_RANK[a.granted] ||
        Number(!ENDED.has(b.snapshot.status)) - Number(!ENDED.has(a.snapshot.status)) ||
        b.snapshot.created.getTime() - a.snapshot.created.getTime() ||
        (a.snapshot.id < b.snapshot.id ? -1 : 1),
    );
  const chosen = ranked[0];
  if (!chosen) return { subscription: null, pastDueSince: null, tier: "free" };
  return { subscription: chosen.snapshot, pastDueSince: chosen.pastDueSince, tier: chosen.granted };
}

const TIER_RANK: Record<Tier, number> = { free: 0, pro: 1, desk: 2 };

/** When a past_due subscription stops granting its tier, or null when it is not past_due. */
export function graceEndsAt(status: string | null, pastDueSince: Date | null, graceMs: number): Date | null {
  return status === "past_due" && pastDueSince ? new Date(pastDueSince.getTime() + graceMs) : null;
}
