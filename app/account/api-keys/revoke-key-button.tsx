"use client";

import type { KeyView } from "@/lib/keys/account-keys";
import { DialogButtons } from "@/app/components/dialog-buttons";
import { useKeyAction } from "./use-key-action";

/** Revoke for one active key, behind a confirmation dialog. "Revoke now" on a key already due to be revoked. */
export function RevokeKeyButton({ keyView, onRevoked }: { keyView: KeyView; onRevoked: (view: KeyView) => void }) {
  const { dialog, error, busy, run } = useKeyAction(`/api/account/keys/${keyView.id}/revoke`, onRevoked);
  return (
    <>
      <button type="button" className="danger" onClick={() => dialog.current?.showModal()}>
        {keyView.revoked_at ? "Revoke now" : "Revoke"}
      </button>

      <dialog ref={dialog} aria-label={`Revoke ${keyView.name}`}>
        <h3>Revoke “{keyView.name}”?</h3>
        <p>
          Revoking takes effect immediately and cannot be undone: every request with <code>{keyView.prefix}</code> will
          then fail with 401 UNAUTHORIZED.
        </p>
        <DialogButtons dialog={dialog} error={error} busy={busy} label="Revoke key" danger onConfirm={() => run({})} />
      </dialog>
    </>
  );
}
