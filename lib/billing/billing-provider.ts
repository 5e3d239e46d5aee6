import { demoBillingProvider, demoBillingRefusal } from "./demo-provider";
import { readStripeConfig, STRIPE_REQUIRED_VARIABLES } from "./stripe/stripe-config";
import { stripeBillingProvider } from "./stripe/stripe-provider";
import type { BillingProvider } from "./billing-types";

export type { BillingCustomer, BillingProvider } from "./billing-types";

const PROVIDER_IDS = ["demo", "stripe"];

/**
 * The provider named by BILLING_PROVIDER; unset, Stripe when its four variables are set, else
 * demo. A value naming no provider, Stripe half-configured and demo billing in a production
 * deployment all throw rather than quietly falling back: a misconfigured deployment must never
 * hand out plans for free. server.ts asks once at start-up, so these stop the start.
 */
export function billingProvider(env: Record<string, string | undefined> = process.env): BillingProvider {
  const stripe = readStripeConfig(env);
  const id = env.BILLING_PROVIDER?.trim() || (stripe ? "stripe" : "demo");
  if (id === "stripe") {
    if (!stripe) throw new Error(`Invalid configuration: BILLING_PROVIDER "stripe" needs ${STRIPE_REQUIRED_VARIABLES.join(", ")}`);
    return stripeBillingProvider(stripe);
  }
  if (id === "demo") {
    const refusal = demoBillingRefusal(env);
    if (refusal) throw new Error(refusal);
    return demoBillingProvider;
  }
  throw new Error(`Invalid configuration: BILLING_PROVIDER "${id}" is not a billing provider (supported: ${PROVIDER_IDS.join(", ")})`);
}
