import type Stripe from "stripe";
import { AppError } from "@/lib/errors";
import { processSingleton } from "@/lib/singleton";
import type { BillingProvider } from "../billing-types";
import type { StripeConfig } from "./stripe-config";

export interface StripeBillingProvider extends BillingProvider {
  id: "stripe";
  config: StripeConfig;
  /** The API client, created on first use: the demo set-up never loads the `stripe` package. */
  client(): Promise<Stripe>;
}

/**
 * Stripe as the billing provider. A plan is never changed on request here: upgrading opens
 * Checkout, changing or cancelling opens the Customer Portal, and the tier then follows the
 * subscription as Stripe reports it (webhooks, reconciliation; see sync-customer.ts).
 */
export function stripeBillingProvider(config: StripeConfig): StripeBillingProvider {
  // One client per configuration and process: it keeps its own connection pool.
  const clients = processSingleton("stripe-clients", () => new Map<string, Promise<Stripe>>());
  const key = JSON.stringify(config);
  const client = () => {
    let created = clients.get(key);
    if (!created) {
      created = import("stripe").then(
        ({ default: StripeClient }) =>
          new StripeClient(config.secretKey, {
            maxNetworkRetries: 2,
            timeout: 20_000,
            telemetry: false,
            appInfo: { name: "funding-opportunity-data-service" },
            ...(config.api ?? {}),
          }),
      );
      clients.set(key, created);
    }
    return created;
  };
  return {
    id: "stripe",
    config,
    client,
    async changeTier() {
      throw new AppError(
        "FORBIDDEN",
        "With Stripe billing the plan follows the Stripe subscription: upgrade through Checkout, change or cancel under Manage billing",
      );
    },
    describe() {
      return "Billed through Stripe: upgrading opens Stripe Checkout, and Manage billing changes or cancels the subscription and lists every invoice.";
    },
  };
}

export function isStripeProvider(provider: BillingProvider): provider is StripeBillingProvider {
  return provider.id === "stripe" && "client" in provider;
}
