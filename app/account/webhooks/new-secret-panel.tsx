"use client";

import { useState } from "react";

/** Shows an endpoint's signing secret the one time the service gives it out. */
export function NewSecretPanel({ heading, secret, onDone }: { heading: string; secret: string; onDone: () => void }) {
  const [copied, setCopied] = useState(false);
  return (
    <div className="panel" role="region" aria-label="New signing secret">
      <h3>{heading}</h3>
      <p className="notice">
        <strong>Copy this signing secret now. It will not be shown again.</strong> Your receiver needs it to verify the{" "}
        <code>webhook-signature</code> header.
      </p>
      <p className="secret" data-testid="new-webhook-secret">
        {secret}
      </p>
      <p>
        <button
          type="button"
          onClick={async () => {
            // A browser that refuses the clipboard (no permission, not https) leaves the secret on screen to copy by hand.
            await navigator.clipboard.writeText(secret).catch(() => undefined);
            setCopied(true);
          }}
        >
          {copied ? "Copied" : "Copy secret"}
        </button>{" "}
        <button type="button" className="secondary" onClick={onDone}>
          I have saved it
        </button>
      </p>
    </div>
  );
}
