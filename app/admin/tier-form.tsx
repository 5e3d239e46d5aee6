"use client";

import { useRouter } from "next/navigation";
import { useState, type FormEvent } from "react";
import { OutcomeMessage } from "@/app/components/form-alerts";
import { postJson, problemFrom } from "@/app/components/field-errors";
import { TIERS, type Tier } from "@/lib/keys/permissions";
import { PLANS, planOf } from "@/lib/plans";

/** The operator's control for one account's tier; a downgrade narrows that user's keys at once, so it asks first. */
export function TierForm({ userId, email, current }: { userId: string; email: string; current: Tier }) {
  const router = useRouter();
  const [tier, setTier] = useState<Tier>(current);
  const [busy, setBusy] = useState(false);
  const [message, setMessage] = useState<{ error: boolean; text: string } | null>(null);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (tier === current) return setMessage({ error: true, text: `${email} is already on ${planOf(tier).name}.` });
    const downgrade = TIERS.indexOf(tier) < TIERS.indexOf(current);
    if (
      downgrade &&
      !window.confirm(
        `Move ${email} down to ${planOf(tier).name}? Their existing keys lose the permissions ${planOf(tier).name} lacks at once${
          planOf(tier).features.api ? "" : ` (${planOf(tier).name} has no API access)`
        }.`,
      )
    ) {
      return;
    }
    setBusy(true);
    setMessage(null);
    try {
      const response = await postJson(`/api/admin/users/${encodeURIComponent(userId)}/tier`, { tier });
      if (!response.ok) return setMessage({ error: true, text: (await problemFrom(response)).message });
      setMessage({ error: false, text: `${email} is now on ${planOf(tier).name}.` });
      router.refresh();
    } catch {
      setMessage({ error: true, text: "Could not reach the server. Try again." });
    } finally {
      setBusy(false);
    }
  }

  const selectId = `tier-${userId}`;
  return (
    <form onSubmit={submit}>
      <label htmlFor={selectId}>Tier for {email}</label>
      <select id={selectId} value={tier} onChange={(event) => setTier(event.target.value as Tier)}>
        {PLANS.map((plan) => (
          <option key={plan.id} value={plan.id}>
            {plan.name}
          </option>
        ))}
      </select>{" "}
      <button type="submit" disabled={busy}>
        Change tier
      </button>
      <OutcomeMessage message={message} />
    </form>
  );
}
