"use client";

import { useState } from "react";
import type { KeyView } from "@/lib/keys/account-keys";

export interface NewKey {
  key: string;
  view: KeyView;
  heading: string;
}

/** Shows a key's secret the one time it exists outside the caller's hands. */
export function NewKeyPanel({ newKey, onDone }: { newKey: NewKey; onDone: () => void }) {
  const [copied, setCopied] = useState(false);
  return (
    <div className="panel" role="region" aria-label="New API key">
      <h3>{newKey.heading}</h3>
      <p className="notice">
        <strong>Copy this key now. It will not be shown again</strong> — we store only a hash of it. If you lose it,
        roll or revoke it and create a new one.
      </p>
      <p className="secret" data-testid="new-key-secret">
        {newKey.key}
      </p>
      <p>
        <button
          type="button"
          onClick={async () => {
            await navigator.clipboard.writeText(newKey.key).catch(() => undefined);
            setCopied(true);
          }}
        >
          {copied ? "Copied" : "Copy key"}
        </button>{" "}
        <button type="button" className="secondary" onClick={onDone}>
          I have saved it
        </button>
      </p>
    </div>
  );
}
