import type Stripe from "stripe";
import { stillRunning } from "./subscription-state";
import { z } from "zod";
import type { Db } from "@/lib/db";
import { AppError } from "@/lib/errors";
import { tierFromDb } from "@/lib/keys/permissions";
import { isPaid, planOf } from "@/lib/plans";
import { listPriceMismatch } from "./list-price";
import type { StripeBillingProvider } from "./stripe-provider";
import { logger } from "@/lib/observability/logger";

const log = logger("billing");

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
export async function ensureStripeCustomer(db: Pick<Db, "stripeCustomer">, provider: StripeBillingProvider, account: Account): Promise<string> {
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

/** How long a Checkout Session stays payable (Stripe's minimum is 30 minutes, its default 24 hours). */
export const CHECKOUT_SESSION_MINUTES = 60;

/** Stripe's calls for one checkout may take several seconds each; the account stays locked meanwhile. */
const CHECKOUT_TRANSACTION = { maxWait: 30_000, timeout: 90_000 };

const MANAGE_BILLING = "change or cancel it under Manage billing";

/**
 * A Stripe Checkout Session (subscription mode) for a paid tier; the browser is sent to its URL.
 *
 * At most one subscription may come out of it, whatever the account does in other tabs or at the
 * same moment: the account row is locked for the whole checkout (two requests run one after the
 * other), an account that already pays or whose subscription Stripe may still bill is refused
 * with 409 (changes go through the Customer Portal), the session opened before is expired at
 * Stripe so it can no longer be paid, and Stripe is asked whether the customer has a running
 * subscription (a paid session whose webhook has not arrived yet) before a new session is made.
 * Stripe's price is read first: one that charges other than the plan's list price (what the pages
 * show) is refused before anything is created at Stripe.
 */
export async function startCheckout(
  db: Db,
  provider: StripeBillingProvider,
  account: Account,
  tier: "pro" | "desk",
  publicOrigin: string,
): Promise<{ url: string }> {
  return db.$transaction(async (tx) => {
    await tx.$queryRaw`SELECT id FROM "User" WHERE id = ${account.id} FOR UPDATE`;
    const user = await tx.user.findUniqueOrThrow({ where: { id: account.id }, select: { tier: true, stripeCustomer: { select: { subscriptionStatus: true } } } });
    if (isPaid(tierFromDb(user.tier))) {
      throw new AppError("CONFLICT", `You already have a paid plan: ${MANAGE_BILLING}`);
    }
    if (stillRunning(user.stripeCustomer?.subscriptionStatus ?? null)) {
      throw new AppError("CONFLICT", `Your subscription is still open (its payment is being retried): pay, ${MANAGE_BILLING}`);
    }
    const client = await provider.client();
    await refuseOffListPrice(client, provider.config.prices[tier], tier);
    const customerId = await ensureStripeCustomer(tx, provider, account);
    const stored = await tx.stripeCustomer.findUniqueOrThrow({ where: { userId: account.id }, select: { checkoutSessionId: true, checkoutExpiresAt: true } });
    if (stored.checkoutSessionId && stored.checkoutExpiresAt && stored.checkoutExpiresAt > new Date()) {
      await expireCheckoutSession(client, stored.checkoutSessionId);
    }
    // After the expiry: a session paid just before it shows here as its subscription.
    await refuseRunningSubscription(client, customerId, "Your account already has a Stripe subscription", MANAGE_BILLING);
    const session = await client.checkout.sessions.create({
      mode: "subscription",
      customer: customerId,
      client_reference_id: account.id,
      line_items: [{ price: provider.config.prices[tier], quantity: 1 }],
      metadata: { account_id: account.id, tier },
      subscription_data: { metadata: { account_id: account.id } },
      success_url: `${publicOrigin}/account/plan?checkout=success`,
      cancel_url: `${publicOrigin}/account/plan?checkout=cancelled`,
      expires_at: Math.floor(Date.now() / 1000) + CHECKOUT_SESSION_MINUTES * 60,
    });
    if (!session.url) throw new AppError("INTERNAL_ERROR", "Stripe returned a Checkout Session without a URL");
    await tx.stripeCustomer.update({
      where: { userId: account.id },
      data: { checkoutSessionId: session.id, checkoutExpiresAt: new Date(session.expires_at * 1000) },
    });
    return { url: session.url };
  }, CHECKOUT_TRANSACTION);
}

/**
 * A 503 when the tier's Stripe price charges other than the plan's list price: the operator set a
 * price id (STRIPE_PRICE_*) whose amount, currency or interval the pages do not state. Logged for them.
 */
async function refuseOffListPrice(client: Stripe, priceId: string, tier: "pro" | "desk"): Promise<void> {
  const price = await client.prices.retrieve(priceId);
  const mismatch = listPriceMismatch(planOf(tier), price);
  if (!mismatch) return;
  log.error({ tier, price: priceId }, `Stripe billing: checkout refused: ${mismatch}; set the plan's Stripe price to its list price`);
  throw new AppError("BILLING_UNAVAILABLE", "This plan cannot be bought right now: its price at Stripe differs from the price listed here. The operators have been told; try again later.");
}

/** A 409 when the customer has a subscription Stripe may still bill, read from Stripe itself. */
export async function refuseRunningSubscription(client: Stripe, customerId: string, what: string, remedy: string): Promise<void> {
  for await (const subscription of client.subscriptions.list({ customer: customerId, status: "all", limit: 100 })) {
    if (stillRunning(subscription.status)) throw new AppError("CONFLICT", `${what} (${subscription.id}, ${subscription.status}): ${remedy}`);
  }
}

/**
 * Expires a session so it can no longer be paid. One Stripe will not expire (already completed or
 * expired) is left as it is: a completed one's subscription is what the caller checks next.
 */
export async function expireCheckoutSession(client: Stripe, sessionId: string): Promise<void> {
  try {
    await client.checkout.sessions.expire(sessionId);
  } catch (error) {
    if (!isStripeError(error) || error.type !== "StripeInvalidRequestError") throw error;
  }
}

/**
 * A Customer Portal session, where the account's owner changes plan, cancels, updates the card and
 * sees every invoice. Stripe refusing it (most often: the portal was never saved in the Dashboard,
 * so no default configuration exists) is a 503 that says so, and is logged for the operator.
 */
export async function openBillingPortal(db: Db, provider: StripeBillingProvider, account: Account, publicOrigin: string): Promise<{ url: string }> {
  const stored = await db.stripeCustomer.findUnique({ where: { userId: account.id }, select: { customerId: true } });
  if (!stored) throw new AppError("NOT_FOUND", "No billing account yet: upgrade to a paid plan first");
  const client = await provider.client();
  try {
    const session = await client.billingPortal.sessions.create({ customer: stored.customerId, return_url: `${publicOrigin}/account/plan` });
    return { url: session.url };
  } catch (error) {
    if (!isStripeError(error)) throw error;
    log.error({ account: account.id, stripeError: error.type }, `Stripe refused a Customer Portal session for account ${account.id}: ${error.type}: ${error.message}`);
    throw new AppError("BILLING_UNAVAILABLE", portalProblem(error));
  }
}

/** What the account's owner is told when Stripe refuses a portal session. */
export function portalProblem(error: { type: string; message: string }): string {
  if (/no configuration provided/i.test(error.message)) {
    return "Manage billing is not available yet: the Stripe Customer Portal has not been enabled in the Stripe Dashboard. The operators have been told; try again later.";
  }
  if (error.type === "StripeConnectionError" || error.type === "StripeAPIError") {
    return "Stripe could not be reached to open Manage billing. Try again in a few minutes.";
  }
  return "Stripe refused to open Manage billing for this account. The operators have been told; try again later.";
}

/** An error the `stripe` package threw for an answer or a failed request (StripeInvalidRequestError, …). */
export function isStripeError(error: unknown): error is { type: string; message: string; code?: string; statusCode?: number } {
  return typeof error === "object" && error !== null && typeof (error as { type?: unknown }).type === "string" && /^Stripe/.test((error as { type: string }).type);
}
