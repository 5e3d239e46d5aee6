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
  const [copy, setCopy] = useState<"idle" | "copied" | "refused">("idle");
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
            // A browser may refuse the clipboard (no permission, not https, no clipboard at all): the
            // secret stays on screen to copy by hand, and the button says so rather than "Copied".
            const copied = await Promise.resolve()
              .then(() => navigator.clipboard.writeText(secret))
              .then(() => true, () => false);
            setCopy(copied ? "copied" : "refused");
          }}
        >
          {copy === "copied" ? "Copied" : copyLabel}
        </button>{" "}
        <button type="button" className="secondary" onClick={onDone}>
          I have saved it
        </button>
      </p>
      <p role="status" className={copy === "refused" ? "field-error" : "visually-hidden"}>
        {copy === "refused" ? "The browser did not allow copying: select the secret above and copy it by hand." : copy === "copied" ? "Copied to the clipboard." : ""}
      </p>
    </div>
  );
}
