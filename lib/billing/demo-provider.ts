import { isPublicHttps, type PublicUrlEnv } from "@/lib/config/public-url";
import type { BillingProvider } from "./billing-types";

/** What the plan page calls the demo provider wherever it shows plans. */
export const DEMO_BILLING_LABEL = "demo billing";

/** The embedded default: no payment is taken, so every change can apply the moment it is asked for. */
export const demoBillingProvider: BillingProvider = {
  id: "demo",
  async changeTier(_customer, tier) {
    return { tier, appliedAt: new Date() };
  },
  describe() {
    return "Demo billing: plan changes apply immediately and nothing is charged.";
  },
};

/**
 * Why demo billing may not run here, or null when it may. It hands out paid plans for nothing, so
 * in production it needs BILLING_ALLOW_DEMO=1, except on the embedded set-up someone is trying
 * out: the embedded database on a plain-http address (`npm start` on a laptop, which runs with
 * NODE_ENV=production, and the end-to-end run). PostgreSQL or an https PUBLIC_URL is a deployment
 * that people can reach and pay for.
 */
export function demoBillingRefusal(env: PublicUrlEnv): string | null {
  if (env.NODE_ENV !== "production" || env.BILLING_ALLOW_DEMO === "1") return null;
  const deployment = env.DATABASE_URL ? "DATABASE_URL is set" : isPublicHttps(env) ? "PUBLIC_URL is https" : null;
  if (!deployment) return null;
  return (
    `Invalid configuration: demo billing gives paid plans away and is refused in production (NODE_ENV=production and ${deployment}). ` +
    "Configure Stripe (STRIPE_SECRET_KEY, STRIPE_WEBHOOK_SECRET, STRIPE_PRICE_PRO, STRIPE_PRICE_DESK) or set BILLING_ALLOW_DEMO=1"
  );
}
