"use client";

import { useState, type ReactNode } from "react";

interface Props {
  /** The region's name ("New API key"). */
  label: string;
  heading: string;
  /** Why to copy it now. */
  notice: ReactNode;
  secret: string;
  testId: string;
  copyLabel: string;
  onDone: () => void;
}

/** A secret shown the one time the service gives it out: copy it, then say it is saved. */
export function SecretPanel({ label, heading, notice, secret, testId, copyLabel, onDone }: Props) {
  const [copied, setCopied] = useState(false);
  return (
    <div className="panel" role="region" aria-label={label}>
      <h3>{heading}</h3>
      <p className="notice">{notice}</p>
      <p className="secret" data-testid={testId}>
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
          {copied ? "Copied" : copyLabel}
        </button>{" "}
        <button type="button" className="secondary" onClick={onDone}>
          I have saved it
        </button>
      </p>
    </div>
  );
}
