"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import { postJson, problemFrom } from "@/app/components/field-errors";

/** Revokes any account's key for an operator, after a confirmation: it cannot be undone. */
export function RevokeKeyButton({ keyId, description }: { keyId: string; description: string }) {
  const router = useRouter();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function revoke() {
    if (!window.confirm(`Revoke the key ${description}? Requests with it fail with 401 at once; this cannot be undone.`)) return;
    setBusy(true);
    setError(null);
    try {
      const response = await postJson(`/api/admin/keys/${encodeURIComponent(keyId)}/revoke`, {});
      if (!response.ok) return setError((await problemFrom(response)).message);
      router.refresh();
    } catch {
      setError("Could not reach the server. Try again.");
    } finally {
      setBusy(false);
    }
  }

  return (
    <>
      <button type="button" className="danger" disabled={busy} onClick={revoke}>
        Revoke
      </button>
      {error && (
        <p role="alert" className="error">
          {error}
        </p>
      )}
    </>
  );
}
