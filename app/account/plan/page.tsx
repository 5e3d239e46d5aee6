import { requireUser } from "@/lib/auth/session";
import { billingProvider } from "@/lib/billing/billing-provider";
import { PERMISSIONS } from "@/lib/keys/permissions";
import { PERMISSION_LABELS, PLANS, planOf } from "@/lib/tiers";
import { PlanSwitcher } from "./plan-switcher";

export const dynamic = "force-dynamic";

export default async function PlanPage() {
  const user = await requireUser("/account/plan");
  const provider = billingProvider();
  const current = planOf(user.tier);
  return (
    <section aria-labelledby="plan-heading">
      <h2 id="plan-heading">Current plan: {current.name}</h2>
      <p>{current.summary}</p>
      <p className="notice">{provider.describe()}</p>

      <div className="table-scroll">
        <table>
          <caption className="muted">What each plan gives</caption>
          <thead>
            <tr>
              <th scope="col">Plan</th>
              {PLANS.map((plan) => (
                <th scope="col" key={plan.id}>
                  {plan.name}
                  {plan.id === user.tier && " (current)"}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            <tr>
              <th scope="row">API access</th>
              {PLANS.map((plan) => (
                <td key={plan.id}>{plan.apiAccess ? "Yes" : "No"}</td>
              ))}
            </tr>
            <tr>
              <th scope="row">Rate limit per key</th>
              {PLANS.map((plan) => (
                <td key={plan.id}>{plan.apiAccess ? `${plan.requestsPerMinute} requests/min` : "—"}</td>
              ))}
            </tr>
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
      </div>

      <PlanSwitcher current={user.tier} />
    </section>
  );
}
