"use client";

import { useRouter } from "next/navigation";
import { useRef, useState } from "react";
import { DialogButtons } from "@/app/components/dialog-buttons";
import { postJson, problemFrom } from "@/app/components/field-errors";
import { TIERS, type Permission, type Tier } from "@/lib/keys/permissions";
import { PERMISSION_LABELS, PLANS, planOf } from "@/lib/plans";

type Outcome = { kind: "ok"; text: string } | { kind: "error"; text: string };

/** What keys stop being able to do when moving from one plan to a lower one. */
function lostPermissions(from: Tier, to: Tier): Permission[] {
  const kept: readonly Permission[] = planOf(to).permissions;
  return planOf(from).permissions.filter((permission) => !kept.includes(permission));
}

/** The Switch buttons; a downgrade first explains, in a dialog, what existing keys lose. */
export function PlanSwitcher({ current }: { current: Tier }) {
  const router = useRouter();
  const dialog = useRef<HTMLDialogElement>(null);
  const [downgradeTo, setDowngradeTo] = useState<Tier | null>(null);
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<Outcome | null>(null);

  async function switchTo(tier: Tier) {
    setBusy(true);
    setOutcome(null);
    try {
      const response = await postJson("/api/account/plan", { tier });
      if (!response.ok) {
        const problem = await problemFrom(response);
        const fields = Object.values(problem.fields);
        setOutcome({ kind: "error", text: fields.length ? `${problem.message}: ${fields.join("; ")}` : problem.message });
        return;
      }
      dialog.current?.close();
      setDowngradeTo(null);
      setOutcome({ kind: "ok", text: `You are now on the ${planOf(tier).name} plan.` });
      router.refresh();
    } catch {
      setOutcome({ kind: "error", text: "Could not reach the server. Check your connection and try again." });
    } finally {
      setBusy(false);
    }
  }

  function choose(tier: Tier) {
    if (TIERS.indexOf(tier) > TIERS.indexOf(current)) {
      void switchTo(tier);
      return;
    }
    setOutcome(null);
    setDowngradeTo(tier);
    dialog.current?.showModal();
  }

  const target = downgradeTo ? planOf(downgradeTo) : null;
  const lost = downgradeTo ? lostPermissions(current, downgradeTo) : [];

  return (
    <div className="panel">
      <h3>Change plan</h3>
      <p className="actions">
        {PLANS.filter((plan) => plan.id !== current).map((plan) => (
          <button
            key={plan.id}
            type="button"
            className={TIERS.indexOf(plan.id) < TIERS.indexOf(current) ? "secondary" : undefined}
            disabled={busy}
            onClick={() => choose(plan.id)}
          >
            Switch to {plan.name}
          </button>
        ))}
      </p>
      {outcome && !downgradeTo && (
        <p role={outcome.kind === "error" ? "alert" : "status"} className={outcome.kind === "error" ? "error" : undefined}>
          {outcome.text}
        </p>
      )}

      <dialog ref={dialog} aria-labelledby="downgrade-heading" onClose={() => setDowngradeTo(null)}>
        {target && (
          <>
            <h3 id="downgrade-heading">Downgrade to {target.name}?</h3>
            {target.features.api ? (
              <p>
                Your existing API keys lose at once the permissions the {target.name} plan lacks
                {lost.length ? `: ${lost.map((p) => PERMISSION_LABELS[p]).join(", ")}` : ""}. Their rate limit becomes{" "}
                {target.requestsPerMinute} requests per minute per key. The plan allows {target.maxActiveKeys} active keys:
                keys beyond that keep working, but no new key can be created until fewer are active.
              </p>
            ) : (
              <p>
                The {target.name} plan has no API access: every existing API key stops working at once (every
                request except the key check <code>GET /v1/auth/verify</code> is refused with 403 FORBIDDEN), and you
                cannot create new keys.
              </p>
            )}
            <p className="muted">
              Your keys are not deleted or edited. Moving back to a higher plan gives them back the permissions they were
              created with.
            </p>
            <DialogButtons
              dialog={dialog}
              error={outcome?.kind === "error" ? outcome.text : null}
              busy={busy}
              label={`Downgrade to ${target.name}`}
              danger
              onConfirm={() => switchTo(target.id)}
            />
          </>
        )}
      </dialog>
    </div>
  );
}
