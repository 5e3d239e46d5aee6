import type { Db } from "@/lib/db";
import { tierOfPrice, type PaidTier } from "./stripe-config";
import type { StripeBillingProvider } from "./stripe-provider";
import { graceEndsAt } from "./subscription-state";
import { formatMoney } from "./money";
import { logger } from "@/lib/observability/logger";

const log = logger("billing");

/** How many of the latest invoices the plan page lists; the Customer Portal has all of them. */
export const INVOICES_SHOWN = 5;

export interface InvoiceLine {
  id: string;
  number: string | null;
  amount: string;
  status: string;
  date: Date;
  url: string | null;
}

export interface BillingOverview {
  /** Whether the account has a Stripe customer (so Manage billing has something to open). */
  customer: boolean;
  subscription: {
    status: string;
    tier: PaidTier | null;
    currentPeriodEnd: Date | null;
    cancelAt: Date | null;
    cancelAtPeriodEnd: boolean;
    graceEndsAt: Date | null;
  } | null;
  /** The latest invoices, newest first; null when Stripe could not be asked (the page says so). */
  invoices: InvoiceLine[] | null;
}

/** What the plan page shows of the account's billing with Stripe: the stored subscription state and the latest invoices, read live. */
export async function billingOverview(db: Db, provider: StripeBillingProvider, userId: string): Promise<BillingOverview> {
  const stored = await db.stripeCustomer.findUnique({ where: { userId } });
  if (!stored) return { customer: false, subscription: null, invoices: [] };
  const subscription = stored.subscriptionStatus
    ? {
        status: stored.subscriptionStatus,
        tier: tierOfPrice(provider.config, stored.priceId),
        currentPeriodEnd: stored.currentPeriodEnd,
        cancelAt: stored.cancelAt,
        cancelAtPeriodEnd: stored.cancelAtPeriodEnd,
        graceEndsAt: graceEndsAt(stored.subscriptionStatus, stored.pastDueSince, provider.config.graceMs),
      }
    : null;
  return { customer: true, subscription, invoices: await latestInvoices(provider, stored.customerId) };
}

async function latestInvoices(provider: StripeBillingProvider, customerId: string): Promise<InvoiceLine[] | null> {
  try {
    const client = await provider.client();
    const invoices = await client.invoices.list({ customer: customerId, limit: INVOICES_SHOWN });
    return invoices.data.map((invoice) => ({
      id: invoice.id,
      number: invoice.number,
      amount: formatMoney(invoice.total, invoice.currency),
      status: invoice.status ?? "draft",
      date: new Date(invoice.created * 1000),
      url: invoice.hosted_invoice_url ?? null,
    }));
  } catch (error) {
    log.error({ err: error }, `Stripe billing: listing invoices failed: ${error instanceof Error ? error.message : String(error)}`);
    return null;
  }
}
