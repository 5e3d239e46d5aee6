"use client";

import { useRef, useState } from "react";
import type { KeyView } from "@/lib/keys/account-keys";
import { splitAllowlistText } from "@/lib/keys/ip-allowlist";
import { ConfirmDialog } from "@/app/components/confirm-dialog";
import { useJsonPost } from "@/app/components/use-json-post";
import { AllowlistField } from "./allowlist-field";
import styles from "./api-keys.module.css";

/** Edits one active key's IP allowlist in a dialog; the server answers with the list as stored (canonical). */
export function EditAllowlistButton({ keyView, onSaved }: { keyView: KeyView; onSaved: (view: KeyView) => void }) {
  const dialog = useRef<HTMLDialogElement>(null);
  const { busy, problem, post } = useJsonPost<KeyView>();
  const [text, setText] = useState("");

  async function save() {
    const view = await post(`/api/account/keys/${keyView.id}/allowlist`, { allowed_ips: splitAllowlistText(text) });
    if (!view) return;
    dialog.current?.close();
    onSaved(view);
  }

  return (
    <>
      <button
        type="button"
        className={`secondary ${styles.editAllowlist}`}
        onClick={() => {
          setText(keyView.allowed_ips.join("\n"));
          dialog.current?.showModal();
        }}
      >
        Edit allowlist
      </button>

      <ConfirmDialog
        name={`IP allowlist of ${keyView.name}`}
        title={`IP allowlist of “${keyView.name}”`}
        dialog={dialog}
        error={problem?.message ?? null}
        busy={busy}
        label="Save allowlist"
        onConfirm={save}
      >
        <p>
          Requests with <code>{keyView.prefix}</code> from any address outside the list are refused with 403 FORBIDDEN.
          A change applies to the key&apos;s very next request.
        </p>
        <AllowlistField id={`allowed-ips-${keyView.id}`} problem={problem} value={text} onChange={setText} />
      </ConfirmDialog>
    </>
  );
}
