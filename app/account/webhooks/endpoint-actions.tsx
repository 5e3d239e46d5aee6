"use client";

import { useRouter } from "next/navigation";
import { useRef, useState } from "react";
import { ConfirmDialog } from "@/app/components/confirm-dialog";
import { OutcomeMessage } from "@/app/components/form-alerts";
import { useSend } from "@/app/components/use-json-post";
import { NewSecretPanel } from "./new-secret-panel";

interface Endpoint {
  id: string;
  url: string;
  enabled: boolean;
}

/** Send test event, enable/disable, roll secret and delete for one endpoint; the page re-renders after each. */
export function EndpointActions({ endpoint, afterDelete }: { endpoint: Endpoint; afterDelete?: string }) {
  const router = useRouter();
  const base = `/api/account/webhooks/${endpoint.id}`;
  const rollDialog = useRef<HTMLDialogElement>(null);
  const deleteDialog = useRef<HTMLDialogElement>(null);
  const { busy, send } = useSend();
  const [message, setMessage] = useState<{ error: boolean; text: string } | null>(null);
  const [dialogError, setDialogError] = useState<string | null>(null);
  const [overlap, setOverlap] = useState("24");
  const [secret, setSecret] = useState<string | null>(null);

  async function act(url: string, method: string, body: unknown, done: (data: unknown) => void, inDialog = false) {
    setMessage(null);
    setDialogError(null);
    const answer = await send(url, method, body);
    if (!answer.ok) {
      if (inDialog) setDialogError(answer.message);
      else setMessage({ error: true, text: answer.message });
      return;
    }
    done(answer.data);
  }

  return (
    <div>
      <button
        type="button"
        disabled={busy}
        onClick={() =>
          act(`${base}/test`, "POST", {}, () => {
            setMessage({ error: false, text: "Test event queued: see the delivery log." });
            router.refresh();
          })
        }
      >
        Send test event
      </button>{" "}
      <button type="button" className="secondary" disabled={busy} onClick={() => act(base, "PATCH", { enabled: !endpoint.enabled }, () => router.refresh())}>
        {endpoint.enabled ? "Disable" : "Enable"}
      </button>{" "}
      <button type="button" className="secondary" disabled={busy} onClick={() => rollDialog.current?.showModal()}>
        Roll secret
      </button>{" "}
      <button type="button" className="danger" disabled={busy} onClick={() => deleteDialog.current?.showModal()}>
        Delete
      </button>
      <OutcomeMessage message={message} className="muted" />
      {secret && <NewSecretPanel heading={`New secret for ${endpoint.url}`} secret={secret} onDone={() => setSecret(null)} />}

      <ConfirmDialog name={`Roll the secret of ${endpoint.url}`} title="Roll the signing secret?" dialog={rollDialog} error={dialogError} busy={busy} label="Roll secret"
        onConfirm={() =>
          act(
            `${base}/roll`,
            "POST",
            { overlap_hours: Number(overlap) },
            (data) => {
              rollDialog.current?.close();
              setSecret((data as { secret: string }).secret);
              router.refresh();
            },
            true,
          )
        }
      >
        <p>A new secret signs from now on. During the overlap the previous one signs too, so your receiver can switch without missing a delivery.</p>
        <p>
          <label>
            Overlap{" "}
            <select value={overlap} onChange={(e) => setOverlap(e.target.value)}>
              <option value="0">None: the old secret stops now</option>
              <option value="1">1 hour</option>
              <option value="24">24 hours</option>
              <option value="72">72 hours</option>
            </select>
          </label>
        </p>
      </ConfirmDialog>

      <ConfirmDialog name={`Delete ${endpoint.url}`} title="Delete this endpoint?" dialog={deleteDialog} error={dialogError} busy={busy} label="Delete endpoint" danger
        onConfirm={() =>
          act(
            base,
            "DELETE",
            undefined,
            () => {
              deleteDialog.current?.close();
              if (afterDelete) router.push(afterDelete);
              router.refresh();
            },
            true,
          )
        }
      >
        <p>
          <code>{endpoint.url}</code> receives nothing more, and its delivery log is deleted with it. This cannot be undone.
        </p>
      </ConfirmDialog>
    </div>
  );
}
