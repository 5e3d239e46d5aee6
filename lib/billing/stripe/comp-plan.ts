import { z } from "zod";
import { recordAudit, type RequestOrigin } from "@/lib/audit";
import type { Db } from "@/lib/db";
import { AppError } from "@/lib/errors";
import { expireCheckoutSession, ensureStripeCustomer, refuseRunningSubscription } from "./stripe-checkout";
import type { StripeBillingProvider } from "./stripe-provider";
import { syncStripeCustomer } from "./sync-customer";

export const compSchema = z.strictObject({
  tier: z.enum(["pro", "desk"], "Tier must be pro or desk"),
  reason: z.string("Say why the plan is granted").trim().min(1, "Say why the plan is granted").max(200, "At most 200 characters"),
});

/** The 100 % coupon, forever, that every comped subscription carries; created once on Stripe. */
export const COMP_COUPON_ID = "fods-comp-100";

export interface CompResult {
  userId: string;
  tier: "pro" | "desk";
  subscriptionId: string;
}

/**
 * Grants a paid plan without charge under Stripe billing: a subscription to the tier's price
 * carrying a 100 % coupon for ever, so Stripe bills nothing (a $0 invoice needs no card), the
 * plan page and the portal show it as it is, and webhooks and start-up reconciliation keep the
 * tier exactly as for a paid one. Ending the comp is cancelling that subscription (Dashboard or
 * the owner's portal). Refused while the account has a subscription Stripe may bill; an open
 * Checkout Session is expired so it cannot be paid on top. Audited as the operator who granted it
 * (`actor` null from `npm run admin`), with the reason; the tier change follows as Stripe's.
 */
export async function compPlan(
  db: Db,
  provider: StripeBillingProvider,
  actor: { userId: string } | null,
  input: { userId: string } & z.infer<typeof compSchema>,
  origin: RequestOrigin,
): Promise<CompResult> {
  const { userId, ...grant } = input;
  const actorId = actor?.userId ?? null;
  const { customerId, subscriptionId } = await db.$transaction(
    async (tx) => {
      // The same lock as a checkout: a comp and a checkout of one account never run at once.
      await tx.$queryRaw`SELECT id FROM "User" WHERE id = ${userId} FOR UPDATE`;
      const user = await tx.user.findUnique({ where: { id: userId }, select: { id: true, email: true, stripeCustomer: { select: { checkoutSessionId: true } } } });
      if (!user) throw new AppError("NOT_FOUND", "No such user");
      const customerId = await ensureStripeCustomer(tx, provider, user);
      const client = await provider.client();
      if (user.stripeCustomer?.checkoutSessionId) await expireCheckoutSession(client, user.stripeCustomer.checkoutSessionId);
      await refuseRunningSubscription(client, customerId, `${user.email} already has a Stripe subscription`, "cancel it (Dashboard or the owner's Manage billing) before granting a plan");
      await ensureCompCoupon(provider);
      const subscription = await client.subscriptions.create({
        customer: customerId,
        items: [{ price: provider.config.prices[grant.tier], quantity: 1 }],
        discounts: [{ coupon: COMP_COUPON_ID }],
        metadata: { account_id: user.id, comp: "true" },
      });
      await recordAudit(tx, { actorId, subjectId: user.id, action: "billing.comped", target: `${grant.tier} (${subscription.id}): ${grant.reason}` }, origin);
      return { customerId, subscriptionId: subscription.id };
    },
    { maxWait: 30_000, timeout: 90_000 },
  );
  // Applied now rather than on the webhook, so the console shows the plan at once.
  await syncStripeCustomer(db, provider, { userId, customerId }, { reason: "Stripe plan granted without charge", origin });
  return { userId, tier: grant.tier, subscriptionId };
}

async function ensureCompCoupon(provider: StripeBillingProvider): Promise<void> {
  const client = await provider.client();
  try {
    await client.coupons.create({ id: COMP_COUPON_ID, percent_off: 100, duration: "forever", name: "Complimentary plan" });
  } catch (error) {
    if ((error as { code?: unknown }).code !== "resource_already_exists") throw error;
  }
}

/** A comp as the console's route answers it. */
export function compView(result: CompResult) {
  return { user_id: result.userId, tier: result.tier, subscription_id: result.subscriptionId };
}
