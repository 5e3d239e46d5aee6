"use client";

import { SecretPanel } from "@/app/components/secret-panel";

/** Shows an endpoint's signing secret the one time the service gives it out. */
export function NewSecretPanel({ heading, secret, onDone }: { heading: string; secret: string; onDone: () => void }) {
  return (
    <SecretPanel
      label="New signing secret"
      heading={heading}
      notice={
        <>
          <strong>Copy this signing secret now. It will not be shown again.</strong> Your receiver needs it to verify the{" "}
          <code>webhook-signature</code> header.
        </>
      }
      secret={secret}
      testId="new-webhook-secret"
      copyLabel="Copy secret"
      onDone={onDone}
    />
  );
}
