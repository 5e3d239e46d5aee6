import type { BillingProvider } from "./billing-provider";

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
