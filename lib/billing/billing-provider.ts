import type { Tier } from "@/lib/keys/permissions";
import type { RequestOrigin } from "@/lib/audit";
import { demoBillingProvider, demoBillingRefusal } from "./demo-provider";
import { readStripeConfig, STRIPE_REQUIRED_VARIABLES } from "./stripe/stripe-config";
import { stripeBillingProvider } from "./stripe/stripe-provider";

export interface BillingCustomer {
  id: string;
  email: string;
  tier: Tier;
}

/**
 * Where plan changes are paid for. The provider decides whether a change happens and when it
 * takes effect; recording it on the account is `changeTier`'s job, whichever provider runs.
 */
export interface BillingProvider {
  id: string;
  changeTier(customer: BillingCustomer, tier: Tier, origin: RequestOrigin): Promise<{ tier: Tier; appliedAt: Date }>;
  /** One sentence for the plan page telling the user how changes are billed. */
  describe(): string;
}

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
