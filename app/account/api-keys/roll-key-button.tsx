"use client";

import { useState } from "react";
import type { KeyView, RollGrace } from "@/lib/keys/account-keys";
import { ConfirmDialog } from "@/app/components/confirm-dialog";
import { useKeyAction } from "./use-key-action";

const GRACE_LABELS: Record<RollGrace, string> = {
  none: "None — revoke the old key now",
  "1h": "1 hour",
  "24h": "24 hours",
  "7d": "7 days",
};

export interface RolledKey {
  key: string;
  view: KeyView;
  previous: KeyView;
}

interface Props {
  keyView: KeyView;
  onRolled: (rolled: RolledKey) => void;
  /** Set when the plan cannot roll keys: the button is disabled and described by the element with this id. */
  unavailableReasonId?: string;
}

/** Roll for one active key, behind a dialog that asks how long the old key keeps working. */
export function RollKeyButton({ keyView, onRolled, unavailableReasonId }: Props) {
  const { dialog, error, busy, run } = useKeyAction(`/api/account/keys/${keyView.id}/roll`, onRolled);
  const [grace, setGrace] = useState<RollGrace>("24h");

  if (unavailableReasonId) {
    return (
      <button
        type="button"
        className="secondary"
        disabled
        title="Rolling a key needs Pro or Desk"
        aria-describedby={unavailableReasonId}
      >
        Roll
      </button>
    );
  }
  return (
    <>
      <button type="button" className="secondary" onClick={() => dialog.current?.showModal()}>
        Roll
      </button>

      <ConfirmDialog name={`Roll ${keyView.name}`} title={`Roll “${keyView.name}”`} dialog={dialog} error={error} busy={busy} label="Roll key" onConfirm={() => run({ grace })}>
        <p>
          Creates a replacement key with the same name, mode and permissions, shown once. The old key keeps working for
          the grace period you choose, then is revoked automatically.
        </p>
        <label htmlFor={`grace-${keyView.id}`}>Grace period for the old key</label>
        <select id={`grace-${keyView.id}`} value={grace} onChange={(e) => setGrace(e.target.value as RollGrace)}>
          {(Object.keys(GRACE_LABELS) as RollGrace[]).map((g) => (
            <option key={g} value={g}>
              {GRACE_LABELS[g]}
            </option>
          ))}
        </select>
      </ConfirmDialog>
    </>
  );
}
