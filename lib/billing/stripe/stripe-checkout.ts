import { stillRunning } from "./subscription-state";
import { z } from "zod";
import type { Db } from "@/lib/db";
import { AppError, fieldError } from "@/lib/errors";
import { tierFromDb } from "@/lib/keys/permissions";
import type { StripeBillingProvider } from "./stripe-provider";

export const checkoutSchema = z.strictObject({
  tier: z.enum(["pro", "desk"], "Tier must be pro or desk"),
});

interface Account {
  id: string;
  email: string;
}

/**
 * The account's Stripe customer, created on its first upgrade. The account id goes into the
 * customer's metadata (and every Checkout Session's client_reference_id), so Stripe's side always
 * names the account; the customer id is stored, so every event finds the account by it. Two first
 * upgrades at once share one customer: the idempotency key makes Stripe answer both with it.
 */
export async function ensureStripeCustomer(db: Db, provider: StripeBillingProvider, account: Account): Promise<string> {
  const stored = await db.stripeCustomer.findUnique({ where: { userId: account.id }, select: { customerId: true } });
  if (stored) return stored.customerId;
  const client = await provider.client();
  const customer = await client.customers.create(
    { email: account.email, metadata: { account_id: account.id } },
    { idempotencyKey: `fods-customer-${account.id}` },
  );
  const row = await db.stripeCustomer.upsert({
    where: { userId: account.id },
    create: { userId: account.id, customerId: customer.id },
    update: {},
    select: { customerId: true },
  });
  return row.customerId;
}

/**
 * A Stripe Checkout Session (subscription mode) for a paid tier; the browser is sent to its URL.
 * An account that already pays, or whose subscription Stripe may still bill (past_due beyond the
 * grace period, unpaid, incomplete), is refused: changing, fixing or cancelling a subscription goes
 * through the Customer Portal, and a second subscription would bill twice.
 */
export async function startCheckout(
  db: Db,
  provider: StripeBillingProvider,
  account: Account,
  tier: "pro" | "desk",
  publicOrigin: string,
): Promise<{ url: string }> {
  const user = await db.user.findUniqueOrThrow({ where: { id: account.id }, select: { tier: true, stripeCustomer: { select: { subscriptionStatus: true } } } });
  if (tierFromDb(user.tier) !== "free") {
    throw fieldError("tier", "You already have a paid plan: change or cancel it under Manage billing");
  }
  if (stillRunning(user.stripeCustomer?.subscriptionStatus ?? null)) {
    throw fieldError("tier", "Your subscription is still open (its payment is being retried): pay, change or cancel it under Manage billing");
  }
  const customerId = await ensureStripeCustomer(db, provider, account);
  const client = await provider.client();
  const session = await client.checkout.sessions.create({
    mode: "subscription",
    customer: customerId,
    client_reference_id: account.id,
    line_items: [{ price: provider.config.prices[tier], quantity: 1 }],
    metadata: { account_id: account.id, tier },
    subscription_data: { metadata: { account_id: account.id } },
    success_url: `${publicOrigin}/account/plan?checkout=success`,
    cancel_url: `${publicOrigin}/account/plan?checkout=cancelled`,
  });
  if (!session.url) throw new AppError("INTERNAL_ERROR", "Stripe returned a Checkout Session without a URL");
  return { url: session.url };
}

/** A Customer Portal session, where the account's owner changes plan, cancels, updates the card and sees every invoice. */
export async function openBillingPortal(db: Db, provider: StripeBillingProvider, account: Account, publicOrigin: string): Promise<{ url: string }> {
  const stored = await db.stripeCustomer.findUnique({ where: { userId: account.id }, select: { customerId: true } });
  if (!stored) throw new AppError("NOT_FOUND", "No billing account yet: upgrade to a paid plan first");
  const client = await provider.client();
  const session = await client.billingPortal.sessions.create({ customer: stored.customerId, return_url: `${publicOrigin}/account/plan` });
  return { url: session.url };
}
