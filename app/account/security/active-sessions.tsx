"use client";

import { signOut } from "next-auth/react";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { ACTIONS_COLUMN, DataTable } from "@/app/components/data-table";
import { formatUtc } from "@/lib/format-time";
import { postJson, problemFrom } from "../../components/field-errors";

export interface SessionRow {
  id: string;
  createdAt: string;
  lastSeenAt: string;
  ip: string | null;
  userAgent: string | null;
  current: boolean;
}

/**
 * The browsers signed in to the account, each with "Sign out", and "Sign out everywhere". Ending
 * this browser's own session (or all of them) also clears its cookie through next-auth and goes
 * to the sign-in page; ending another one just refreshes the list.
 */
export function ActiveSessions({ sessions }: { sessions: SessionRow[] }) {
  const router = useRouter();
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState<string | null>(null);

  async function revoke(url: string, key: string, endsThisSession: boolean) {
    setBusy(key);
    setError(null);
    const response = await postJson(url, {});
    if (!response.ok) {
      setBusy(null);
      return setError((await problemFrom(response)).message);
    }
    if (endsThisSession) return signOut({ callbackUrl: "/signin" });
    setBusy(null);
    router.refresh();
  }

  return (
    <>
      {error && (
        <p role="alert" className="error">
          {error}
        </p>
      )}
      <DataTable aria-labelledby="sessions-heading" columns={["Browser or client", "IP address", "Signed in (UTC)", "Last active (UTC)", ACTIONS_COLUMN]}>
        {sessions.map((session) => (
          <tr key={session.id} aria-current={session.current ? "true" : undefined}>
            <td className="muted audit-agent">
              {session.current && <strong>This browser · </strong>}
              {session.userAgent ?? "unknown"}
            </td>
            <td>{session.ip ?? "unknown"}</td>
            <td className="nowrap">
              <time dateTime={session.createdAt}>{formatUtc(session.createdAt)}</time>
            </td>
            <td className="nowrap">
              <time dateTime={session.lastSeenAt}>{formatUtc(session.lastSeenAt)}</time>
            </td>
            <td>
              <button
                type="button"
                className="secondary"
                disabled={busy !== null}
                aria-label={session.current ? "Sign out this browser" : `Sign out the session from ${session.ip ?? "an unknown address"}`}
                onClick={() => revoke(`/api/account/sessions/${session.id}/revoke`, session.id, session.current)}
              >
                {busy === session.id ? "Signing out…" : "Sign out"}
              </button>
            </td>
          </tr>
        ))}
      </DataTable>
      <p>
        <button type="button" className="danger" disabled={busy !== null} onClick={() => revoke("/api/account/sessions/revoke", "all", true)}>
          {busy === "all" ? "Signing out everywhere…" : "Sign out everywhere"}
        </button>
      </p>
    </>
  );
}
