"use client";

import { useRouter } from "next/navigation";
import { useRef, useState } from "react";
import { ConfirmDialog } from "@/app/components/confirm-dialog";
import { useSend } from "@/app/components/use-json-post";

/** Enable/disable and delete for one rule; the page re-renders after each. */
export function AlertActions({ rule }: { rule: { id: string; name: string; enabled: boolean } }) {
  const router = useRouter();
  const base = `/api/account/alerts/${rule.id}`;
  const deleteDialog = useRef<HTMLDialogElement>(null);
  const { busy, send } = useSend();
  const [error, setError] = useState<string | null>(null);
  const [dialogError, setDialogError] = useState<string | null>(null);

  async function act(method: "PATCH" | "DELETE", body?: unknown, inDialog = false): Promise<boolean> {
    setError(null);
    setDialogError(null);
    const answer = await send(base, method, body);
    if (!answer.ok) {
      (inDialog ? setDialogError : setError)(answer.message);
      return false;
    }
    router.refresh();
    return true;
  }

  return (
    <div>
      <button type="button" className="secondary" disabled={busy} onClick={() => act("PATCH", { enabled: !rule.enabled })}>
        {rule.enabled ? "Disable" : "Enable"}
      </button>{" "}
      <button type="button" className="danger" disabled={busy} onClick={() => deleteDialog.current?.showModal()}>
        Delete
      </button>
      {error && (
        <p role="alert" className="error">
          {error}
        </p>
      )}
      <ConfirmDialog name={`Delete ${rule.name}`} title="Delete this alert rule?" dialog={deleteDialog} error={dialogError} busy={busy} label="Delete rule" danger
        onConfirm={() =>
          void act("DELETE", undefined, true).then((done) => {
            if (done) deleteDialog.current?.close();
          })
        }
      >
        <p>
          <strong>{rule.name}</strong> raises no more alerts. Alerts it raised stay in your events until they expire.
        </p>
      </ConfirmDialog>
    </div>
  );
}
