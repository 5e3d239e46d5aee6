"use client";

import { useRouter } from "next/navigation";
import { useRef, useState } from "react";
import { DialogButtons } from "@/app/components/dialog-buttons";
import { problemFrom } from "@/app/components/field-errors";

/** Enable/disable and delete for one rule; the page re-renders after each. */
export function AlertActions({ rule }: { rule: { id: string; name: string; enabled: boolean } }) {
  const router = useRouter();
  const base = `/api/account/alerts/${rule.id}`;
  const deleteDialog = useRef<HTMLDialogElement>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [dialogError, setDialogError] = useState<string | null>(null);

  async function act(method: "PATCH" | "DELETE", body?: unknown, inDialog = false): Promise<boolean> {
    const setProblem = inDialog ? setDialogError : setError;
    setBusy(true);
    setError(null);
    setDialogError(null);
    try {
      const response = await fetch(base, {
        method,
        headers: body === undefined ? {} : { "Content-Type": "application/json" },
        ...(body !== undefined && { body: JSON.stringify(body) }),
      });
      if (!response.ok) {
        setProblem((await problemFrom(response)).message);
        return false;
      }
      router.refresh();
      return true;
    } catch {
      setProblem("Could not reach the server. Check your connection and try again.");
      return false;
    } finally {
      setBusy(false);
    }
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
      <dialog ref={deleteDialog} aria-label={`Delete ${rule.name}`}>
        <h3>Delete this alert rule?</h3>
        <p>
          <strong>{rule.name}</strong> raises no more alerts. Alerts it raised stay in your events until they expire.
        </p>
        <DialogButtons
          dialog={deleteDialog}
          error={dialogError}
          busy={busy}
          label="Delete rule"
          danger
          onConfirm={() =>
            void act("DELETE", undefined, true).then((done) => {
              if (done) deleteDialog.current?.close();
            })
          }
        />
      </dialog>
    </div>
  );
}
