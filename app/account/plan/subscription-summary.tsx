import { DataTable } from "@/app/components/data-table";
import type { BillingOverview } from "@/lib/billing/stripe/billing-overview";
import { formatUtc } from "@/lib/format-time";
import { planOf } from "@/lib/plans";

const STATUS_TEXT: Record<string, string> = {
  active: "Active",
  trialing: "Trial",
  past_due: "Payment failed: Stripe is retrying",
  unpaid: "Unpaid",
  canceled: "Cancelled",
  incomplete: "Awaiting the first payment",
  incomplete_expired: "Expired before the first payment",
  paused: "Paused",
};

const when = (date: Date) => <time dateTime={date.toISOString()}>{formatUtc(date)}</time>;

/** The Stripe subscription behind the plan and the latest invoices, as the plan page shows them. */
export function SubscriptionSummary({ overview }: { overview: BillingOverview }) {
  const subscription = overview.subscription;
  const endsAt = subscription?.cancelAt ?? (subscription?.cancelAtPeriodEnd ? subscription.currentPeriodEnd : null);
  return (
    <div className="panel">
      <h3>Subscription</h3>
      {subscription ? (
        <dl>
          <dt>Plan</dt>
          <dd>{subscription.tier ? planOf(subscription.tier).name : "A price this service does not sell"}</dd>
          <dt>Status</dt>
          <dd>
            {STATUS_TEXT[subscription.status] ?? subscription.status} <code>{subscription.status}</code>
          </dd>
          {subscription.graceEndsAt && (
            <>
              <dt>Paid plan kept until</dt>
              <dd>{when(subscription.graceEndsAt)}, unless the payment succeeds before</dd>
            </>
          )}
          {subscription.currentPeriodEnd && !["canceled", "incomplete_expired"].includes(subscription.status) && (
            <>
              <dt>{endsAt ? "Current period ends" : "Renews on"}</dt>
              <dd>{when(subscription.currentPeriodEnd)}</dd>
            </>
          )}
          <dt>Cancel at period end</dt>
          <dd>{endsAt ? <>Yes: the subscription ends on {when(endsAt)}</> : "No"}</dd>
        </dl>
      ) : (
        <p className="muted">No subscription: you are on the Free plan.</p>
      )}

      <h3>Latest invoices</h3>
      {overview.invoices === null ? (
        <p className="error" role="alert">
          Stripe could not be reached to list your invoices. Reload the page to try again, or open Manage billing.
        </p>
      ) : overview.invoices.length === 0 ? (
        <p className="muted">No invoices yet.</p>
      ) : (
        <DataTable aria-label="Latest invoices" columns={["Number", "Date", "Amount", "Status", "Invoice"]}>
          {overview.invoices.map((invoice) => (
            <tr key={invoice.id}>
              <td>{invoice.number ?? "—"}</td>
              <td>{when(invoice.date)}</td>
              <td>{invoice.amount}</td>
              <td>{invoice.status}</td>
              <td>
                {invoice.url ? (
                  <a href={invoice.url} target="_blank" rel="noopener noreferrer">
                    View
                  </a>
                ) : (
                  "—"
                )}
              </td>
            </tr>
          ))}
        </DataTable>
      )}
    </div>
  );
}
