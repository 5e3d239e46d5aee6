"use client";

import { useRef, useState } from "react";
import type { KeyView, RollGrace } from "@/lib/keys/account-keys";
import { postJson, problemFrom } from "../../components/field-errors";

const GRACE_LABELS: Record<RollGrace, string> = {
  none: "None — revoke the old key now",
  "1h": "1 hour",
  "24h": "24 hours",
  "7d": "7 days",
};

interface Props {
  keyView: KeyView;
  onRevoked: (view: KeyView) => void;
  onRolled: (rolled: { key: string; view: KeyView; previous: KeyView }) => void;
}

/** Revoke and Roll for one active key, each behind a confirmation dialog. */
export function KeyActions({ keyView, onRevoked, onRolled }: Props) {
  const revokeDialog = useRef<HTMLDialogElement>(null);
  const rollDialog = useRef<HTMLDialogElement>(null);
  const [grace, setGrace] = useState<RollGrace>("24h");
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function act(url: string, body: unknown, done: (data: never) => void, dialog: HTMLDialogElement | null) {
    setBusy(true);
    setError(null);
    const response = await postJson(url, body);
    setBusy(false);
    if (!response.ok) return setError((await problemFrom(response)).message);
    dialog?.close();
    done(((await response.json()) as { data: never }).data);
  }

  return (
    <>
      <button type="button" className="secondary" onClick={() => rollDialog.current?.showModal()}>
        Roll
      </button>{" "}
      <button type="button" className="danger" onClick={() => revokeDialog.current?.showModal()}>
        Revoke
      </button>

      <dialog ref={revokeDialog} aria-label={`Revoke ${keyView.name}`}>
        <h3>Revoke “{keyView.name}”?</h3>
        <p>
          Revoking takes effect immediately and cannot be undone: every request with <code>{keyView.prefix}</code> will
          then fail with 401 UNAUTHORIZED.
        </p>
        {error && <p className="error">{error}</p>}
        <p>
          <button
            type="button"
            className="danger"
            disabled={busy}
            onClick={() => act(`/api/account/keys/${keyView.id}/revoke`, {}, onRevoked, revokeDialog.current)}
          >
            Revoke key
          </button>{" "}
          <button type="button" className="secondary" onClick={() => revokeDialog.current?.close()}>
            Cancel
          </button>
        </p>
      </dialog>

      <dialog ref={rollDialog} aria-label={`Roll ${keyView.name}`}>
        <h3>Roll “{keyView.name}”</h3>
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
        {error && <p className="error">{error}</p>}
        <p>
          <button
            type="button"
            disabled={busy}
            onClick={() => act(`/api/account/keys/${keyView.id}/roll`, { grace }, onRolled, rollDialog.current)}
          >
            Roll key
          </button>{" "}
          <button type="button" className="secondary" onClick={() => rollDialog.current?.close()}>
            Cancel
          </button>
        </p>
      </dialog>
    </>
  );
}
