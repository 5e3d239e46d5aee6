import type { Db } from "@/lib/db";
import { billingProvider } from "./billing-provider";
import { expireGracePeriods, reconcileStripeCustomers } from "./stripe/reconcile";
import { isStripeProvider } from "./stripe/stripe-provider";

/** How often a server looks for past_due subscriptions whose grace period has run out. */
export const GRACE_SWEEP_INTERVAL_MS = 10 * 60 * 1000;

export interface BillingRuntime {
  stop(): void;
}

/**
 * Billing's part of a server's start: the provider is chosen here once, so a misconfiguration
 * (an unknown BILLING_PROVIDER, Stripe half-configured, demo billing in a production deployment)
 * stops the start instead of failing the first plan page. With Stripe, every account is then
 * reconciled with Stripe's subscriptions (in the background: readiness never waits on Stripe) and
 * expired grace periods are looked for every few minutes.
 */
export function startBilling(db: Db, env: Record<string, string | undefined> = process.env): BillingRuntime {
  const provider = billingProvider(env);
  if (!isStripeProvider(provider)) return { stop() {} };
  const sweep = () =>
    expireGracePeriods(db, provider)
      .then((expired) => expired && console.log(`Stripe billing: ${expired} account(s) moved to Free after the payment grace period`))
      .catch((error: unknown) => console.error("Stripe billing: checking grace periods failed", error));
  reconcileStripeCustomers(db, provider)
    .then((report) => console.log(`Stripe billing: reconciled ${report.customers} customer(s), ${report.tierChanges} tier change(s)`))
    .catch((error: unknown) => console.error("Stripe billing: start-up reconciliation failed; webhooks still apply", error))
    .finally(sweep);
  const timer = setInterval(sweep, GRACE_SWEEP_INTERVAL_MS);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}
