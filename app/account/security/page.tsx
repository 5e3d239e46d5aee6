import { requireUser } from "@/lib/auth/session";
import { getDb } from "@/lib/db";
import { AUDIT_TRAIL_LIMIT, auditTrail } from "@/lib/security/audit-trail";
import { formatUtc } from "@/lib/format-time";

export const dynamic = "force-dynamic";

export default async function SecurityPage() {
  const user = await requireUser("/account/security");
  const trail = await auditTrail(await getDb(), user.id);
  return (
    <section aria-labelledby="security-heading">
      <h2 id="security-heading">Security</h2>
      <p className="muted">
        Everything done with your account: sign-ins, keys created, rolled and revoked, plan changes. Newest first; times
        are UTC. If you see activity you do not recognise, revoke the keys concerned under API Keys.
      </p>
      {trail.total > trail.entries.length && (
        <p className="notice">
          Showing the latest {AUDIT_TRAIL_LIMIT} of {trail.total} events.
        </p>
      )}
      {trail.entries.length === 0 ? (
        <p>No activity recorded yet.</p>
      ) : (
        <div className="table-scroll">
          <table>
            <thead>
              <tr>
                <th scope="col">Time (UTC)</th>
                <th scope="col">Action</th>
                <th scope="col">Target</th>
                <th scope="col">IP address</th>
                <th scope="col">Browser or client</th>
              </tr>
            </thead>
            <tbody>
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
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
