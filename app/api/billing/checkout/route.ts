// POST /api/billing/checkout — a Stripe Checkout Session for a paid plan; the page sends the browser to its URL.
import { readJson } from "@/lib/api/read-json";
import { withSession } from "@/lib/api/with-session";
import { billingProvider } from "@/lib/billing/billing-provider";
import { checkoutSchema, startCheckout } from "@/lib/billing/stripe/stripe-checkout";
import { isStripeProvider } from "@/lib/billing/stripe/stripe-provider";
import { publicOrigin } from "@/lib/config/public-url";
import { AppError } from "@/lib/errors";

export const POST = withSession("user", async ({ request, db, user }) => {
  const { tier } = await readJson(request, checkoutSchema);
  const provider = billingProvider();
  if (!isStripeProvider(provider)) throw new AppError("NOT_FOUND", "Stripe billing is not configured");
  return { data: await startCheckout(db, provider, user, tier, publicOrigin()) };
});
