import Link from "next/link";
import { DemoBillingBadge } from "@/app/components/demo-billing-badge";
import { PlanComparisonTable } from "@/app/components/plan-comparison-table";
import { currentUser } from "@/lib/auth/session";
import { listPrice, planNames, planOf, PLANS, plansWith } from "@/lib/plans";
import styles from "./page.module.css";

export const dynamic = "force-dynamic";

export default async function LandingPage() {
  const user = await currentUser();
  const free = planOf("free");
  return (
    <>
      <section className="hero">
        <h1>Funding-rate arbitrage, ranked.</h1>
        <p>
          Perpetual futures pay funding between longs and shorts every one to eight hours, and the same asset
          often pays very different rates on different exchanges. We collect funding rates, prices, open
          interest and volume from the major venues, pair every asset across them, and rank the spreads by
          annualised return — gross and after fees — so you can be long where funding is cheap, short where it
          is dear, and collect the difference while staying price-neutral.
        </p>
        <p>
          Browse the opportunities in the web app, or call <code>GET /v1/opportunities</code> from your bots
          with an API key.
        </p>
        {user ? (
          <p className="actions">
            <Link className="button" href="/opportunities">
              Open the screener
            </Link>
            <Link href="/account/api-keys">Account → API Keys</Link>
          </p>
        ) : (
          <>
            <p className="actions">
              <Link className="button" href="/signup">
                Create an account
              </Link>
              <Link href="/signin">Sign in</Link>
            </p>
            <p className={styles.teaser}>
              <Link href="/opportunities">See the screener (delayed {free.dataDelayMinutes} min, no account needed)</Link>
            </p>
          </>
        )}
      </section>

      <section aria-labelledby="plans">
        <h2 id="plans">
          Plans
          <DemoBillingBadge />
        </h2>
        <div className="tiers">
          {PLANS.map((tier) => (
            <article key={tier.id} className="tier">
              <h3>{tier.name}</h3>
              <p className={styles.price}>{listPrice(tier)}</p>
              <p>{tier.summary}</p>
            </article>
          ))}
        </div>
        <div className={styles.comparison}>
          <PlanComparisonTable caption="What each plan includes (prices in US dollars, billed monthly)" current={user?.tier} />
        </div>
      </section>

      <section aria-labelledby="start">
        <h2 id="start">Quick start</h2>
        <ol>
          <li>Create an API key under Account → API Keys ({planNames(plansWith("api"), "or")} plan).</li>
          <li>
            Send <code>Authorization: Bearer &lt;API_KEY&gt;</code> on every request.
          </li>
          <li>
            Call <code>GET /v1/opportunities</code>.
          </li>
        </ol>
      </section>
    </>
  );
}
