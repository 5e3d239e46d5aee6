import Link from "next/link";
import { listPrice, planNames, plansWith, type Plan } from "@/lib/plans";

/**
 * Where an account without API access lands (after sign-up, sign-in, or on API Keys): what its plan
 * does include, with links, before the upgrade. Every number is the plans table's.
 */
export function FreePlanGuide({ plan }: { plan: Plan }) {
  const apiPlans = plansWith("api");
  return (
    <section className="panel" aria-labelledby="free-plan-guide">
      <h2 id="free-plan-guide">What you can do on {plan.name}</h2>
      <ul>
        <li>
          <Link href="/opportunities">Open the screener</Link>: every funding-rate spread across the venues, ranked by APR gross and after fees,
          with data delayed {plan.dataDelayMinutes} minutes.
        </li>
        <li>Open any opportunity in the screener for both of its legs and its funding-rate history.</li>
        <li>
          Read the <Link href="/docs">API documentation</Link> and try the examples once you have a key.
        </li>
      </ul>
      <p className="muted">
        Live data, API keys (test and live), simulations and the portfolio, webhooks, alerts and exports come with{" "}
        {planNames(apiPlans, "or")} ({apiPlans.map((p) => `${p.name} ${listPrice(p)}`).join(", ")}).{" "}
        <Link href="/#plans">Compare the plans</Link> or <Link href="/account/plan">change your plan</Link>.
      </p>
    </section>
  );
}
