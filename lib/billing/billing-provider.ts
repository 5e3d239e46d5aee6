import type { Tier } from "@/lib/keys/permissions";
import type { RequestOrigin } from "@/lib/audit";
import { demoBillingProvider } from "./demo-provider";

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

const PROVIDERS: Record<string, BillingProvider> = { [demoBillingProvider.id]: demoBillingProvider };

/**
 * The provider named by BILLING_PROVIDER (default `demo`). A value naming no provider throws
 * rather than quietly falling back, so a misconfigured deployment never hands out plans for free.
 */
export function billingProvider(env: Record<string, string | undefined> = process.env): BillingProvider {
  const id = env.BILLING_PROVIDER?.trim() || demoBillingProvider.id;
  const provider = Object.hasOwn(PROVIDERS, id) ? PROVIDERS[id] : undefined;
  if (!provider) {
    throw new Error(`Invalid configuration: BILLING_PROVIDER "${id}" is not a billing provider (supported: ${Object.keys(PROVIDERS).join(", ")})`);
  }
  return provider;
}
