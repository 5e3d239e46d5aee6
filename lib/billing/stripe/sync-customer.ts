import { recordAudit, type RequestOrigin } from "@/lib/audit";
import type { Db } from "@/lib/db";
import { tierFromDb, type Tier } from "@/lib/keys/permissions";
import { keyEvents } from "@/lib/keys/key-events";
import { writeTierChange } from "../record-tier-change";
import type { StripeBillingProvider } from "./stripe-provider";
import { customerState, extraSubscriptions, snapshotOf, type SubscriptionSnapshot } from "./subscription-state";
import { logger } from "@/lib/observability/logger";

const log = logger("billing");

/** An account and the Stripe customer that pays for it. */
export interface CustomerLink {
  userId: string;
  customerId: string;
}

export interface SyncTrigger {
  /** The webhook event that asked for this sync: stored in the transaction that applies it, so it is applied once. */
  event?: { id: string; type: string; created: Date };
  /** Why, for the audit trail: "Stripe customer.subscription.deleted", "start-up reconciliation", … */
  reason: string;
  origin: RequestOrigin;
}

export type SyncOutcome =
  | { kind: "duplicate" }
  /** A sync that read Stripe later has already written its state; this older read changed nothing. */
  | { kind: "stale" }
  | { kind: "applied"; tier: Tier; previousTier: Tier; subscriptionId: string | null };

/**
 * Reads the customer's subscriptions from Stripe and applies them: the newest state wins whatever
 * order the webhooks arrive in, because every event re-reads the state rather than trusting the
 * copy it carries.
 */
export async function syncStripeCustomer(
  db: Db,
  provider: StripeBillingProvider,
  link: CustomerLink,
  trigger: SyncTrigger,
): Promise<SyncOutcome> {
  const readAt = await databaseNow(db);
  const client = await provider.client();
  const snapshots: SubscriptionSnapshot[] = [];
  for await (const subscription of client.subscriptions.list({ customer: link.customerId, status: "all", limit: 100 })) {
    snapshots.push(snapshotOf(subscription, provider.config));
  }
  const outcome = await applyStripeState(db, provider, link, snapshots, readAt, trigger);
  if (outcome.kind === "applied") await cancelExtraSubscriptions(db, provider, link, extraSubscriptions(snapshots, outcome.subscriptionId), outcome.subscriptionId, trigger.origin);
  return outcome;
}

/**
 * Cancels, prorated, each subscription of the customer that Stripe would bill besides the one the
 * account follows (two checkouts both paid), so the customer is never charged for a plan the
 * account does not have: `DELETE /v1/subscriptions/{id}` with `prorate` and `invoice_now`, which
 * credits the unused time on a final invoice. Each one is written to the account's audit trail.
 * One already cancelled (by a concurrent delivery) is left alone; any other failure is thrown, so
 * Stripe delivers the event again and the next sync tries again.
 */
export async function cancelExtraSubscriptions(
  db: Db,
  provider: StripeBillingProvider,
  link: CustomerLink,
  extras: readonly SubscriptionSnapshot[],
  followedId: string | null,
  origin: RequestOrigin,
): Promise<void> {
  if (extras.length === 0) return;
  const client = await provider.client();
  for (const extra of extras) {
    try {
      await client.subscriptions.cancel(extra.id, { prorate: true, invoice_now: true });
    } catch (error) {
      if ((error as { type?: unknown }).type === "StripeInvalidRequestError") continue;
      throw error;
    }
    log.warn({ account: link.userId, customer: link.customerId, subscription: extra.id }, `Stripe customer ${link.customerId} had a second billing subscription ${extra.id}; cancelled it (prorated), keeping ${followedId}`);
    const target = `${extra.id} (${extra.tier ?? extra.priceId ?? "unknown price"}, ${extra.status}); the account keeps ${followedId ?? "none"}`;
    await recordAudit(db, { actorId: null, subjectId: link.userId, action: "billing.subscription_cancelled", target }, origin);
  }
}

/**
 * When a read of Stripe begins, by the database's clock rather than this server's: reads by servers
 * whose clocks differ must still compare by when they happened, so a later read is never judged
 * stale because another server's clock runs fast.
 */
export async function databaseNow(db: Db): Promise<Date> {
  const [row] = await db.$queryRaw<{ now: Date }[]>`SELECT now() AS now`;
  return row!.now;
}

/**
 * Applies subscriptions read from Stripe at `readAt` to the account, in one transaction with the
 * event that asked for it (a redelivered event finds its id and changes nothing) and with the tier
 * change and its audit line. A state read before the stored one is dropped: two deliveries
 * processed at once, on one server or several, cannot put an older state back.
 */
export async function applyStripeState(
  db: Db,
  provider: StripeBillingProvider,
  link: CustomerLink,
  snapshots: readonly SubscriptionSnapshot[],
  readAt: Date,
  trigger: SyncTrigger,
): Promise<SyncOutcome> {
  let outcome: SyncOutcome;
  try {
    outcome = await db.$transaction(async (tx) => {
      if (trigger.event) {
        if (await tx.stripeEvent.findUnique({ where: { id: trigger.event.id }, select: { id: true } })) return { kind: "duplicate" } as const;
        await tx.stripeEvent.create({ data: { id: trigger.event.id, type: trigger.event.type } });
      }
      // Serialises the syncs of one account across transactions and servers: the later one waits
      // here and then sees what the earlier one wrote (the row exists: linking creates it).
      await tx.$queryRaw`SELECT 1 FROM "StripeCustomer" WHERE "userId" = ${link.userId} FOR UPDATE`;
      const stored = await tx.stripeCustomer.findUnique({ where: { userId: link.userId } });
      if (stored?.syncedAt && stored.syncedAt > readAt) return { kind: "stale" } as const;
      // A failed payment's event dates the failure; any other (a late redelivery, start-up) only
      // tells that the state holds now, so a newly seen past_due starts its grace when it is read.
      const observedAt = trigger.event?.type === "invoice.payment_failed" ? trigger.event.created : readAt;
      const state = customerState(snapshots, stored, readAt, observedAt, provider.config.graceMs);
      const subscription = state.subscription;
      const fields = {
        subscriptionId: subscription?.id ?? null,
        subscriptionStatus: subscription?.status ?? null,
        priceId: subscription?.priceId ?? null,
        currentPeriodEnd: subscription?.currentPeriodEnd ?? null,
        cancelAt: subscription?.cancelAt ?? null,
        cancelAtPeriodEnd: subscription?.cancelAtPeriodEnd ?? false,
        pastDueSince: state.pastDueSince,
        syncedAt: readAt,
      };
      await tx.stripeCustomer.upsert({
        where: { userId: link.userId },
        create: { userId: link.userId, customerId: link.customerId, ...fields },
        update: fields,
      });
      const user = await tx.user.findUniqueOrThrow({ where: { id: link.userId }, select: { id: true, email: true, tier: true } });
      const previousTier = tierFromDb(user.tier);
      if (previousTier !== state.tier) {
        await writeTierChange(tx, { actorId: null, user, from: previousTier, to: state.tier, reason: trigger.reason }, trigger.origin);
      }
      return { kind: "applied", tier: state.tier, previousTier, subscriptionId: subscription?.id ?? null } as const;
    });
  } catch (error) {
    // The same event delivered twice at once: the other delivery's transaction stored its id first.
    if (trigger.event && isUniqueViolation(error)) return { kind: "duplicate" };
    throw error;
  }
  // Every cached key of the account must see the new tier on its very next request.
  if (outcome.kind === "applied" && outcome.tier !== outcome.previousTier) await keyEvents().publish({ userId: link.userId });
  return outcome;
}

/** Prisma's unique-constraint error: another transaction inserted the same key first. */
export function isUniqueViolation(error: unknown): boolean {
  return typeof error === "object" && error !== null && (error as { code?: unknown }).code === "P2002";
}
