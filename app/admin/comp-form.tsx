"use client";

import { useRouter } from "next/navigation";
import { useState, type FormEvent } from "react";
import { OutcomeMessage } from "@/app/components/form-alerts";
import { postJson, problemFrom } from "@/app/components/field-errors";
import { planOf } from "@/lib/plans";

/** Under Stripe billing: grants one account a paid plan without charge (a 100 % coupon subscription), with a reason for the audit trail. */
export function CompForm({ userId, email }: { userId: string; email: string }) {
  const router = useRouter();
  const [tier, setTier] = useState<"pro" | "desk">("pro");
  const [reason, setReason] = useState("");
  const [busy, setBusy] = useState(false);
  const [message, setMessage] = useState<{ error: boolean; text: string } | null>(null);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setBusy(true);
    setMessage(null);
    try {
      const response = await postJson(`/api/admin/users/${encodeURIComponent(userId)}/comp`, { tier, reason });
      if (!response.ok) return setMessage({ error: true, text: (await problemFrom(response)).message });
      setMessage({ error: false, text: `${email} now has ${planOf(tier).name} without charge.` });
      router.refresh();
    } catch {
      setMessage({ error: true, text: "Could not reach the server. Try again." });
    } finally {
      setBusy(false);
    }
  }

  return (
    <form onSubmit={submit}>
      <label htmlFor={`comp-tier-${userId}`}>Grant without charge</label>
      <select id={`comp-tier-${userId}`} value={tier} onChange={(event) => setTier(event.target.value as "pro" | "desk")}>
        <option value="pro">{planOf("pro").name}</option>
        <option value="desk">{planOf("desk").name}</option>
      </select>{" "}
      <label htmlFor={`comp-reason-${userId}`}>Reason</label>
      <input id={`comp-reason-${userId}`} value={reason} onChange={(event) => setReason(event.target.value)} maxLength={200} required />{" "}
      <button type="submit" disabled={busy}>
        Grant plan
      </button>
      <OutcomeMessage message={message} />
    </form>
  );
}
