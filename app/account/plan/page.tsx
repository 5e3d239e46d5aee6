import { headers } from "next/headers";
import { requireUser } from "@/lib/auth/session";
import { billingProvider } from "@/lib/billing/billing-provider";
import { DEMO_BILLING_LABEL } from "@/lib/billing/demo-provider";
import { billingOverview } from "@/lib/billing/stripe/billing-overview";
import { stillRunning } from "@/lib/billing/stripe/subscription-state";
import { isStripeProvider, type StripeBillingProvider } from "@/lib/billing/stripe/stripe-provider";
import { syncStripeCustomer } from "@/lib/billing/stripe/sync-customer";
import { getDb } from "@/lib/db";
import { PERMISSIONS, type Tier } from "@/lib/keys/permissions";
import { isPaid, PERMISSION_LABELS, PLANS, planOf, type Plan } from "@/lib/plans";
import { PlanSwitcher } from "./plan-switcher";
import { StripePlanActions } from "./stripe-plan-actions";
import { SubscriptionSummary } from "./subscription-summary";
import { logger } from "@/lib/observability/logger";
import { ScrollRegion } from "@/app/components/scroll-region";

export const dynamic = "force-dynamic";

export default async function PlanPage({ searchParams }: { searchParams: Promise<{ checkout?: string | string[] }> }) {
  const user = await requireUser("/account/plan");
  const provider = billingProvider();
  const { checkout } = await searchParams;
  const stripe = isStripeProvider(provider) ? provider : null;
  const tier = stripe && checkout === "success" ? await syncAfterCheckout(stripe, user.id, user.tier) : user.tier;
  const overview = stripe ? await billingOverview(await getDb(), stripe, user.id) : null;
  const current = planOf(tier);
  return (
    <section aria-labelledby="plan-heading">
      <h2 id="plan-heading">
        Current plan: {current.name}
        {!stripe && <> <span className="badge">{DEMO_BILLING_LABEL}</span></>}
      </h2>
      <p>{current.summary}</p>
      <p className="notice">{provider.describe()}</p>
      {checkout === "success" && !isPaid(tier) && (
        <p role="status">Thank you: your plan changes as soon as Stripe confirms the payment. Reload this page in a moment.</p>
      )}
      {checkout === "cancelled" && <p role="status">Checkout was cancelled: nothing was charged and your plan is unchanged.</p>}

      <ScrollRegion labelledBy="plans-caption">
        <table>
          <caption id="plans-caption" className="muted">What each plan gives{!stripe && ` (${DEMO_BILLING_LABEL}: nothing is charged)`}</caption>
          <thead>
            <tr>
              <th scope="col">Plan</th>
              {PLANS.map((plan) => (
                <th scope="col" key={plan.id}>
                  {plan.name}
                  {plan.id === tier && " (current)"}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {ROWS.map(([label, cell]) => (
              <tr key={label}>
                <th scope="row">{label}</th>
                {PLANS.map((plan) => (
                  <td key={plan.id}>{cell(plan)}</td>
                ))}
              </tr>
            ))}
            {PERMISSIONS.map((permission) => (
              <tr key={permission}>
                <th scope="row">
                  {PERMISSION_LABELS[permission]} <code>{permission}</code>
                </th>
                {PLANS.map((plan) => (
                  <td key={plan.id}>{plan.permissions.includes(permission) ? "Yes" : "No"}</td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </ScrollRegion>

      {stripe && overview ? (
        <>
          <StripePlanActions current={tier} customer={overview.customer} subscriptionOpen={stillRunning(overview.subscription?.status ?? null)} />
          <SubscriptionSummary overview={overview} />
        </>
      ) : (
        <PlanSwitcher current={tier} />
      )}
    </section>
  );
}

const upTo = (n: number, unit: string) => (n > 0 ? `Up to ${n}${unit}` : "—");

/** The plans table's rows as this page shows them, one line per limit or feature. */
const ROWS: readonly [string, (plan: Plan) => string][] = [
  ["Market data", (plan) => (plan.features.liveData ? "Live" : `Delayed ${plan.dataDelayMinutes} min`)],
  ["Simulations and portfolio", (plan) => (plan.features.portfolio ? "Yes" : "No")],
  ["API access", (plan) => (plan.features.api ? "Yes" : "No")],
  ["Rate limit per key", (plan) => (plan.features.api ? `${plan.requestsPerMinute} requests/min` : "—")],
  ["Funding history through the API", (plan) => (plan.features.api ? `Last ${plan.historyDays} days` : "—")],
  ["Active API keys", (plan) => upTo(plan.maxActiveKeys, "")],
  ["Live streams (GET /v1/stream)", (plan) => upTo(plan.streams, " at once")],
  ["Webhook endpoints", (plan) => upTo(plan.webhookEndpoints, " per mode")],
  ["Alert rules", (plan) => upTo(plan.alertRules, " per mode")],
  [
    "Funding-history exports (CSV, Parquet)",
    (plan) =>
      plan.features.export
        ? `${plan.exportsPerDay} a day, up to ${plan.exportRangeDays} days and ${plan.exportMaxRows.toLocaleString("en-US")} rows each`
        : "—",
  ],
];

/**
 * Back from Checkout, the webhook may not have arrived yet: reading the subscription from Stripe
 * now shows the new plan at once (the webhook then finds nothing left to change). A failure only
 * leaves it to the webhook.
 */
async function syncAfterCheckout(provider: StripeBillingProvider, userId: string, tier: Tier): Promise<Tier> {
  try {
    const db = await getDb();
    const link = await db.stripeCustomer.findUnique({ where: { userId }, select: { userId: true, customerId: true } });
    if (!link) return tier;
    const request = await headers();
    const origin = { ip: request.get("x-real-ip"), userAgent: request.get("user-agent") };
    const outcome = await syncStripeCustomer(db, provider, link, { reason: "Stripe Checkout completed", origin });
    return outcome.kind === "applied" ? outcome.tier : tier;
  } catch (error) {
    logger("billing").error({ err: error, account: userId }, "Stripe billing: syncing after Checkout failed; the webhook will apply it");
    return tier;
  }
}
