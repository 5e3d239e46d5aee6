import type { Db } from "@/lib/db";
import { startPeriodicTask, type PeriodicTask } from "@/lib/process/periodic-task";
import { billingProvider } from "./billing-provider";
import { expireGracePeriods, reconcileStripeCustomers } from "./stripe/reconcile";
import { isStripeProvider } from "./stripe/stripe-provider";
import { logger } from "@/lib/observability/logger";

const log = logger("billing");

/** How often a server looks for past_due subscriptions whose grace period has run out. */
export const GRACE_SWEEP_INTERVAL_MS = 10 * 60 * 1000;


/**
 * Billing's part of a server's start: the provider is chosen here once, so a misconfiguration
 * (an unknown BILLING_PROVIDER, Stripe half-configured, demo billing in a production deployment)
 * stops the start instead of failing the first plan page. With Stripe, every account is then
 * reconciled with Stripe's subscriptions (in the background: readiness never waits on Stripe) and
 * expired grace periods are looked for every few minutes.
 */
export function startBilling(db: Db, env: Record<string, string | undefined> = process.env): PeriodicTask {
  const provider = billingProvider(env);
  if (!isStripeProvider(provider)) return { run() {}, stop() {} };
  const sweep = async () => {
    const expired = await expireGracePeriods(db, provider);
    if (expired) log.info({ expired }, `Stripe billing: ${expired} account(s) moved to Free after the payment grace period`);
  };
  // The first sweep follows the reconciliation, which may already have ended some grace periods.
  const grace = startPeriodicTask("Stripe billing: checking grace periods", GRACE_SWEEP_INTERVAL_MS, sweep, { runNow: false });
  reconcileStripeCustomers(db, provider)
    .then((report) => log.info(report, `Stripe billing: reconciled ${report.customers} customer(s), ${report.tierChanges} tier change(s)`))
    .catch((error: unknown) => log.error({ err: error }, "Stripe billing: start-up reconciliation failed; webhooks still apply"))
    .finally(grace.run);
  return grace;
}
