import type Stripe from "stripe";
import type { RequestOrigin } from "@/lib/audit";
import type { Db } from "@/lib/db";
import { tierFromDb } from "@/lib/keys/permissions";
import { keyEvents } from "@/lib/keys/key-events";
import { isPaid, paidDbTiers } from "@/lib/plans";
import { writeTierChange } from "../record-tier-change";
import type { StripeBillingProvider } from "./stripe-provider";
import { extraSubscriptions, grantsTier, snapshotOf, type SubscriptionSnapshot } from "./subscription-state";
import { tierOfPrice } from "./stripe-config";
import { applyStripeState, cancelExtraSubscriptions, databaseNow, isUniqueViolation } from "./sync-customer";
import { logger } from "@/lib/observability/logger";

const log = logger("billing");

/** Changes the service makes on its own: no request, no address. */
const SYSTEM: RequestOrigin = { ip: null, userAgent: null };

export interface ReconcileReport {
  customers: number;
  tierChanges: number;
}

/**
 * Brings every account in line with Stripe, at start-up: webhooks missed while no server was up
 * (or sent to another deployment) are thus caught up. Every subscription is listed once, page by
 * page, rather than a request per customer. A subscription whose customer is not linked yet is
 * linked through the account_id its metadata carries. An account on a paid tier with no Stripe
 * customer at all pays for nothing (a plan taken under demo billing) and moves to Free. A customer
 * billed for two subscriptions has the one its account does not follow cancelled, as on a webhook.
 */
export async function reconcileStripeCustomers(db: Db, provider: StripeBillingProvider): Promise<ReconcileReport> {
  const readAt = await databaseNow(db);
  const client = await provider.client();
  const byCustomer = new Map<string, { snapshots: SubscriptionSnapshot[]; accountId: string | null }>();
  for await (const subscription of client.subscriptions.list({ status: "all", limit: 100 })) {
    const customerId = idOf(subscription.customer);
    const entry = byCustomer.get(customerId) ?? { snapshots: [], accountId: null };
    entry.snapshots.push(snapshotOf(subscription, provider.config));
    entry.accountId ??= subscription.metadata?.account_id ?? null;
    byCustomer.set(customerId, entry);
  }

  const links = await db.stripeCustomer.findMany({ select: { userId: true, customerId: true } });
  const linkedCustomers = new Set(links.map((link) => link.customerId));
  const linkedAccounts = new Set(links.map((link) => link.userId));
  for (const [customerId, { accountId }] of byCustomer) {
    if (linkedCustomers.has(customerId) || !accountId || linkedAccounts.has(accountId)) continue;
    if (!(await db.user.findUnique({ where: { id: accountId }, select: { id: true } }))) continue;
    try {
      await db.stripeCustomer.create({ data: { userId: accountId, customerId } });
    } catch (error) {
      // Another server starting, or a webhook, linked it first: the link exists, which is the point.
      if (!isUniqueViolation(error)) throw error;
      continue;
    }
    links.push({ userId: accountId, customerId });
    linkedAccounts.add(accountId);
  }

  let tierChanges = 0;
  const trigger = { reason: "Stripe start-up reconciliation", origin: SYSTEM };
  for (const link of links) {
    // One account's failure must not keep the others (and the unpaid ones below) unreconciled.
    try {
      const snapshots = byCustomer.get(link.customerId)?.snapshots ?? [];
      const outcome = await applyStripeState(db, provider, link, snapshots, readAt, trigger);
      if (outcome.kind === "applied" && outcome.tier !== outcome.previousTier) tierChanges++;
      // Two subscriptions billed while no server was up to see the webhooks: the same cure.
      if (outcome.kind === "applied") await cancelExtraSubscriptions(db, provider, link, extraSubscriptions(snapshots, outcome.subscriptionId), outcome.subscriptionId, SYSTEM);
    } catch (error) {
      log.error({ err: error, account: link.userId }, `Stripe reconciliation of account ${link.userId} failed`);
    }
  }

  const unpaid = await db.user.findMany({ where: { tier: { in: paidDbTiers() }, stripeCustomer: { is: null } }, select: { id: true, email: true, tier: true } });
  for (const user of unpaid) {
    await db.$transaction((tx) =>
      writeTierChange(tx, { actorId: null, user, from: tierFromDb(user.tier), to: "free", reason: "No Stripe subscription at start-up" }, SYSTEM),
    );
    await keyEvents().publish({ userId: user.id });
    tierChanges++;
  }
  return { customers: links.length, tierChanges };
}

/**
 * Ends the paid tier of accounts whose subscription has been past_due longer than the grace
 * period. No webhook marks that moment (Stripe keeps retrying the payment on its own schedule), so
 * the servers check for it every few minutes; the state is the stored one, Stripe is not asked.
 */
export async function expireGracePeriods(db: Db, provider: StripeBillingProvider, now = new Date()): Promise<number> {
  const due = await db.stripeCustomer.findMany({
    where: {
      subscriptionStatus: "past_due",
      pastDueSince: { lte: new Date(now.getTime() - provider.config.graceMs) },
      user: { tier: { in: paidDbTiers() } },
    },
    select: { userId: true, syncedAt: true },
  });
  let expired = 0;
  for (const { userId, syncedAt } of due) {
    const changed = await db.$transaction(async (tx) => {
      // Locks the row only if no sync has written it since it was read; a sync that has, or that
      // runs now, decides from Stripe's newer state instead.
      const locked = await tx.stripeCustomer.updateMany({ where: { userId, syncedAt, subscriptionStatus: "past_due" }, data: { syncedAt } });
      if (locked.count === 0) return false;
      const row = await tx.stripeCustomer.findUniqueOrThrow({ where: { userId } });
      if (grantsTier("past_due", tierOfPrice(provider.config, row.priceId), row.pastDueSince, now, provider.config.graceMs)) return false;
      const user = await tx.user.findUniqueOrThrow({ where: { id: userId }, select: { id: true, email: true, tier: true } });
      if (!isPaid(tierFromDb(user.tier))) return false;
      const reason = "Stripe payment past due beyond the grace period";
      await writeTierChange(tx, { actorId: null, user, from: tierFromDb(user.tier), to: "free", reason }, SYSTEM);
      return true;
    });
    if (changed) {
      await keyEvents().publish({ userId });
      expired++;
    }
  }
  return expired;
}

function idOf(value: string | Stripe.Customer | Stripe.DeletedCustomer): string {
  return typeof value === "string" ? value : value.id;
}
