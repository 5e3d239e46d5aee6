"use client";

import { SecretPanel } from "@/app/components/secret-panel";
import type { KeyView } from "@/lib/keys/account-keys";

export interface NewKey {
  key: string;
  view: KeyView;
  heading: string;
}

/** Shows a key's secret the one time it exists outside the caller's hands. */
export function NewKeyPanel({ newKey, onDone }: { newKey: NewKey; onDone: () => void }) {
  return (
    <SecretPanel
      label="New API key"
      heading={newKey.heading}
      notice={
        <>
          <strong>Copy this key now. It will not be shown again</strong> — we store only a hash of it. If you lose it,
          roll or revoke it and create a new one.
        </>
      }
      secret={newKey.key}
      testId="new-key-secret"
      copyLabel="Copy key"
      onDone={onDone}
    />
  );
}
