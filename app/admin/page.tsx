import { searchUsers, SEARCH_LIMIT, type UserMatch } from "@/lib/admin/search-users";
import { tierCounts } from "@/lib/admin/tier-counts";
import { requireAdmin } from "@/lib/auth/session";
import { DemoBillingBadge } from "@/app/components/demo-billing-badge";
import { DataTable } from "@/app/components/data-table";
import { getDb } from "@/lib/db";
import { formatUtc } from "@/lib/format-time";
import type { KeyStatus } from "@/lib/keys/account-keys";
import { PLANS, planOf } from "@/lib/plans";
import { accountsUsage } from "@/lib/usage/accounts-usage";
import { billingProvider } from "@/lib/billing/billing-provider";
import { cursorGroups } from "@/lib/history/backfill/backfill-store";
import { venueProgress } from "@/lib/history/backfill/backfill-progress";
import { readPairingExclusions } from "@/lib/market/ingest/pairing-exclusions-store";
import { AccountsUsage } from "./accounts-usage";
import { BackfillProgressSection } from "./backfill-progress";
import { CompForm } from "./comp-form";
import { PairingExclusionsSection } from "./pairing-exclusions";
import { RevokeKeyButton } from "./revoke-key-button";
import { TierForm } from "./tier-form";

// No page metadata: a title would show in the 404 that everyone but operators gets.
export const dynamic = "force-dynamic";

const STATUS_LABELS: Record<KeyStatus, string> = { active: "Active", expired: "Expired", revoked: "Revoked" };

export default async function AdminPage({ searchParams }: { searchParams: Promise<{ q?: string | string[] }> }) {
  await requireAdmin();
  const db = await getDb();
  const { q } = await searchParams;
  const query = (Array.isArray(q) ? q[0] : q) ?? "";
  const now = new Date();
  const [counts, search, busiest, backfill, exclusions] = await Promise.all([
    tierCounts(db, now),
    searchUsers(db, query, now),
    accountsUsage(db, {}, now),
    cursorGroups(db, now.getTime()).then(venueProgress),
    readPairingExclusions(db),
  ]);
  const found = search.query ? await accountsUsage(db, { userIds: search.users.map((user) => user.id) }, now) : null;

  return (
    <>
      <h1>Operator console</h1>

      <section aria-labelledby="counts-heading">
        <h2 id="counts-heading">
          Accounts by plan
          <DemoBillingBadge />
        </h2>
        <DataTable aria-labelledby="counts-heading" columns={["Plan", "Users", "Active keys"]}>
          {PLANS.map((plan) => (
            <tr key={plan.id}>
              <th scope="row">{plan.name}</th>
              <td>{counts.users[plan.id]}</td>
              <td>{counts.activeKeys[plan.id]}</td>
            </tr>
          ))}
        </DataTable>
        <p className="muted">
          Active keys are neither revoked nor expired, counted under their owner&apos;s current plan; a key rolled with a
          grace period counts until the grace period ends. Keys of Free accounts are refused by the API.
        </p>
      </section>

      <section aria-labelledby="search-heading">
        <h2 id="search-heading">Find a user</h2>
        <form method="get" action="/admin" role="search">
          <label htmlFor="q">E-mail contains</label>
          <input id="q" name="q" type="search" defaultValue={search.query} maxLength={254} autoComplete="off" />{" "}
          <button type="submit">Search</button>
        </form>
        {search.query && <SearchResults query={search.query} users={search.users} total={search.total} />}
      </section>

      <AccountsUsage busiest={busiest} found={found} query={search.query} />

      <BackfillProgressSection progress={backfill} />

      <PairingExclusionsSection exclusions={exclusions} />
    </>
  );
}

function SearchResults({ query, users, total }: { query: string; users: UserMatch[]; total: number }) {
  if (total === 0) return <p>No account&apos;s e-mail contains “{query}”.</p>;
  return (
    <>
      <p className="muted">
        {total === 1 ? "1 account matches" : `${total} accounts match`} “{query}”
        {total > users.length && `; showing the first ${SEARCH_LIMIT} by e-mail. Narrow the search to see the others`}.
      </p>
      {users.map((user) => (
        <UserPanel key={user.id} user={user} />
      ))}
    </>
  );
}

const ACTION_COLUMN = <span className="muted">Action</span>;

function UserPanel({ user }: { user: UserMatch }) {
  const headingId = `user-${user.id}`;
  return (
    <section className="panel" aria-labelledby={headingId}>
      <h3 id={headingId}>{user.email}</h3>
      <p>
        Plan: <strong>{planOf(user.tier).name}</strong> · Created{" "}
        <time dateTime={user.createdAt.toISOString()}>{formatUtc(user.createdAt)}</time>
      </p>
      {/* Under Stripe the tier follows the subscription: an operator grants a plan as a comped one. */}
      {billingProvider().id === "stripe" ? <CompForm userId={user.id} email={user.email} /> : <TierForm userId={user.id} email={user.email} current={user.tier} />}
      {user.keys.length === 0 ? (
        <p className="muted">No API keys.</p>
      ) : (
        <DataTable
      caption={`API keys of ${user.email}`}
      captionClassName="muted"
      columns={["Name", "Prefix", "Mode", "Status", "Created", "Last used", ACTION_COLUMN]}
    >
          {user.keys.map((key) => (
            <tr key={key.id}>
              <td>{key.name}</td>
              <td>
                <code className="nowrap">{key.prefix}</code>
              </td>
              <td>{key.mode}</td>
              <td>
                <span className={`status-${key.status}`}>{STATUS_LABELS[key.status]}</span>
                {key.status === "active" && key.revoked_at && (
                  <span className="muted"> until {formatUtc(key.revoked_at)} (rolled)</span>
                )}
              </td>
              <td className="nowrap">{formatUtc(key.created_at)}</td>
              <td className="nowrap">{formatUtc(key.last_used_at)}</td>
              <td>
                {key.status !== "revoked" && (
                  <RevokeKeyButton keyId={key.id} description={`“${key.name}” (${key.prefix}) of ${user.email}`} />
                )}
              </td>
            </tr>
          ))}
        </DataTable>
      )}
    </section>
  );
}
