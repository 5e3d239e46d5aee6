// POST /api/billing/portal — a Stripe Customer Portal session (change or cancel the plan, invoices); the page sends the browser to its URL.
import { withSession } from "@/lib/api/with-session";
import { billingProvider } from "@/lib/billing/billing-provider";
import { openBillingPortal } from "@/lib/billing/stripe/stripe-checkout";
import { isStripeProvider } from "@/lib/billing/stripe/stripe-provider";
import { publicOrigin } from "@/lib/config/public-url";
import { AppError } from "@/lib/errors";

export const POST = withSession("user", async ({ db, user }) => {
  const provider = billingProvider();
  if (!isStripeProvider(provider)) throw new AppError("NOT_FOUND", "Stripe billing is not configured");
  return { data: await openBillingPortal(db, provider, user, publicOrigin()) };
});
