"use client";

import type { KeyView } from "@/lib/keys/account-keys";
import { ConfirmDialog } from "@/app/components/confirm-dialog";
import { useKeyAction } from "./use-key-action";

/** Revoke for one active key, behind a confirmation dialog. "Revoke now" on a key already due to be revoked. */
export function RevokeKeyButton({ keyView, onRevoked }: { keyView: KeyView; onRevoked: (view: KeyView) => void }) {
  const { dialog, error, busy, run } = useKeyAction(`/api/account/keys/${keyView.id}/revoke`, onRevoked);
  return (
    <>
      <button type="button" className="danger" onClick={() => dialog.current?.showModal()}>
        {keyView.revoked_at ? "Revoke now" : "Revoke"}
      </button>

      <ConfirmDialog name={`Revoke ${keyView.name}`} title={`Revoke “${keyView.name}”?`} dialog={dialog} error={error} busy={busy} label="Revoke key" danger onConfirm={() => run({})}>
        <p>
          Revoking takes effect immediately and cannot be undone: every request with <code>{keyView.prefix}</code> will
          then fail with 401 UNAUTHORIZED.
        </p>
      </ConfirmDialog>
    </>
  );
}
