import { DataTable } from "@/app/components/data-table";
import { MIN_PASSWORD_LENGTH } from "@/lib/accounts/credentials";
import { requireUser } from "@/lib/auth/session";
import { listActiveSessions, SESSION_IDLE_TIMEOUT_MS, SESSION_LIFETIME_MS } from "@/lib/accounts/user-sessions";
import { getDb } from "@/lib/db";
import { AUDIT_TRAIL_LIMIT, auditTrail } from "@/lib/security/audit-trail";
import { formatUtc } from "@/lib/format-time";
import { ActiveSessions } from "./active-sessions";
import { ChangePasswordForm } from "./change-password-form";

export const dynamic = "force-dynamic";

const HOUR_MS = 60 * 60 * 1000;

export default async function SecurityPage() {
  const user = await requireUser("/account/security");
  const db = await getDb();
  const [trail, sessions] = await Promise.all([auditTrail(db, user.id), listActiveSessions(db, user.id, user.sessionId)]);
  return (
    <>
      <section aria-labelledby="sessions-heading">
        <h2 id="sessions-heading">Active sessions</h2>
        <p className="muted">
          The browsers signed in to your account. A session ends after {SESSION_IDLE_TIMEOUT_MS / HOUR_MS} hours without
          use and {SESSION_LIFETIME_MS / (24 * HOUR_MS)} days after signing in at the latest. If you do not recognise
          one, sign it out and change your password.
        </p>
        <ActiveSessions
          sessions={sessions.map((session) => ({
            id: session.id,
            createdAt: session.createdAt.toISOString(),
            lastSeenAt: session.lastSeenAt.toISOString(),
            ip: session.ip,
            userAgent: session.userAgent,
            current: session.current,
          }))}
        />
      </section>

      <ChangePasswordForm minPasswordLength={MIN_PASSWORD_LENGTH} />

      <section aria-labelledby="security-heading">
        <h2 id="security-heading">Account activity</h2>
        <p className="muted">
          Everything done with your account: sign-ins (and failed attempts), keys created, rolled and revoked, plan and
          password changes. Newest first; times are UTC. If you see activity you do not recognise, revoke the keys
          concerned under API Keys, sign out the sessions above and change your password.
        </p>
        {trail.total > trail.entries.length && (
          <p className="notice">
            Showing the latest {AUDIT_TRAIL_LIMIT} of {trail.total} events.
          </p>
        )}
        {trail.entries.length === 0 ? (
          <p>No activity recorded yet.</p>
        ) : (
          <DataTable aria-labelledby="security-heading" columns={["Time (UTC)", "Action", "Target", "IP address", "Browser or client"]}>
            {trail.entries.map((entry) => (
              <tr key={entry.id}>
                <td className="nowrap">
                  <time dateTime={entry.at.toISOString()} title={entry.at.toISOString()}>
                    {formatUtc(entry.at)}
                  </time>
                </td>
                <td>{entry.label}</td>
                <td>{entry.target ?? "—"}</td>
                <td>{entry.ip ?? "unknown"}</td>
                <td className="muted audit-agent">{entry.userAgent ?? "unknown"}</td>
              </tr>
            ))}
          </DataTable>
        )}
      </section>
    </>
  );
}
