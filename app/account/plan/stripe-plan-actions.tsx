"use client";

import { useState } from "react";
import { useJsonPost } from "@/app/components/use-json-post";
import { TIERS, type Tier } from "@/lib/keys/permissions";
import { isPaid, planNames, PLANS } from "@/lib/plans";

/**
 * Upgrade (a Stripe Checkout Session) while the account pays for nothing; Manage billing (the
 * Customer Portal: change plan, cancel, card, every invoice) once it has a Stripe customer. Both
 * answer a Stripe URL the browser is sent to.
 */
export function StripePlanActions({ current, customer, subscriptionOpen }: { current: Tier; customer: boolean; subscriptionOpen: boolean }) {
  const { busy, problem, post } = useJsonPost<{ url: string }>();
  const [unreachable, setUnreachable] = useState(false);

  async function go(url: string, body: unknown) {
    setUnreachable(false);
    try {
      const answer = await post(url, body);
      if (answer) window.location.assign(answer.url);
    } catch {
      setUnreachable(true);
    }
  }

  const fields = problem ? Object.values(problem.fields) : [];
  const error = unreachable
    ? "Could not reach the server. Check your connection and try again."
    : problem && (fields.length ? `${problem.message}: ${fields.join("; ")}` : problem.message);
  // A subscription Stripe may still bill is settled under Manage billing, never by a second one.
  const paying = isPaid(current);
  const upgrades = !paying && !subscriptionOpen ? PLANS.filter((plan) => TIERS.indexOf(plan.id) > TIERS.indexOf(current)) : [];
  return (
    <div className="panel">
      <h3>Change plan</h3>
      <p className="actions">
        {upgrades.map((plan) => (
          <button key={plan.id} type="button" disabled={busy} onClick={() => go("/api/billing/checkout", { tier: plan.id })}>
            Upgrade to {plan.name}
          </button>
        ))}
        {customer && (
          <button type="button" className={upgrades.length ? "secondary" : undefined} disabled={busy} onClick={() => go("/api/billing/portal", {})}>
            Manage billing
          </button>
        )}
      </p>
      <p className="muted">
        {upgrades.length
          ? "Upgrading opens Stripe Checkout; your plan changes as soon as Stripe confirms the payment."
          : subscriptionOpen && !paying
          ? "Your subscription's payment is being retried: pay, change or cancel it under Manage billing."
          : `Switch between ${planNames(PLANS.filter((plan) => plan.price !== null))}, cancel, or update your card under Manage billing (Stripe's customer portal).`}
      </p>
      {error && (
        <p role="alert" className="error">
          {error}
        </p>
      )}
    </div>
  );
}
