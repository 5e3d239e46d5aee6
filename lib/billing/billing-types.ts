import type { RequestOrigin } from "@/lib/audit";
import type { Tier } from "@/lib/keys/permissions";

// The provider contract apart from the factory that picks one (billing-provider.ts), so that the
// providers it picks from can implement it without importing the factory back.

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
