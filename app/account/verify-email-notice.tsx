"use client";

import { useState } from "react";
import { postJson, problemFrom } from "../components/field-errors";

/**
 * Shown across the account area until the owner follows the verification link. `apiAccess` is
 * whether the plan has API keys at all: only then is "test keys work now" something to offer.
 */
export function VerifyEmailNotice({ email, apiAccess }: { email: string; apiAccess: boolean }) {
  const [status, setStatus] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function resend() {
    setBusy(true);
    const response = await postJson("/api/account/verification", {});
    setBusy(false);
    if (!response.ok) {
      setStatus((await problemFrom(response)).message);
      return;
    }
    const { alreadyVerified, delivery } = ((await response.json()) as { data: { alreadyVerified: boolean; delivery: "smtp" | "log" | null } }).data;
    setStatus(
      alreadyVerified
        ? "Your address is already verified. Reload the page."
        : delivery === "log"
          ? "No mail server is configured on this server, so the new link was written to the server log: check the server log."
          : `We sent a new link to ${email}. Earlier links no longer work.`,
    );
  }

  return (
    <div className="notice" role="region" aria-label="Verify your e-mail">
      <p>
        <strong>Verify your e-mail address.</strong> Follow the link we sent to {email}.{" "}
        {apiAccess
          ? "Until then you can use test keys, but not live keys."
          : "Everything your plan includes works meanwhile; live API keys, on a plan with the API, need a verified address."}
      </p>
      <p>
        <button type="button" onClick={resend} disabled={busy}>
          {busy ? "Sending…" : "Resend verification e-mail"}
        </button>
      </p>
      {status && <p role="status">{status}</p>}
    </div>
  );
}
