import { DataTable } from "@/app/components/data-table";
import type { AccountUsageSummary } from "@/lib/usage/accounts-usage";
import { planOf } from "@/lib/plans";

/**
 * The operator console's usage per account: the busiest accounts of the last 30 days, and, while
 * a search is shown, the accounts it found (those that made requests).
 */
export function AccountsUsage({ busiest, found, query }: { busiest: AccountUsageSummary[]; found: AccountUsageSummary[] | null; query: string }) {
  return (
    <section aria-labelledby="usage-heading">
      <h2 id="usage-heading">API usage by account</h2>
      <p className="muted">
        Requests made with each account&apos;s keys (live and test) over the last 24 hours and the last 30 days (UTC days),
        counted as the account&apos;s own Usage page counts them.
      </p>
      {found !== null && (
        <UsageTable caption={`Accounts whose e-mail contains “${query}”`} rows={found} empty={`No account matching “${query}” made requests in the last 30 days.`} />
      )}
      <UsageTable caption="Busiest accounts, last 30 days" rows={busiest} empty="No API requests in the last 30 days." />
    </section>
  );
}

function UsageTable({ caption, rows, empty }: { caption: string; rows: AccountUsageSummary[]; empty: string }) {
  if (rows.length === 0) return <p>{empty}</p>;
  return (
    <DataTable
      caption={caption}
      columns={["Account", "Plan", "Requests, 24 h", "Rate limited, 24 h", "Requests, 30 days", "Errors (4xx, 5xx), 30 days", "Rate limited, 30 days"]}
    >
      {rows.map((row) => (
        <tr key={row.userId}>
          <th scope="row">{row.email}</th>
          <td>{planOf(row.tier).name}</td>
          <td>{row.lastDay.requests.toLocaleString("en-US")}</td>
          <td>{row.lastDay.rate_limited.toLocaleString("en-US")}</td>
          <td>{row.lastMonth.requests.toLocaleString("en-US")}</td>
          <td>
            {row.lastMonth.client_errors.toLocaleString("en-US")}, {row.lastMonth.server_errors.toLocaleString("en-US")}
          </td>
          <td>{row.lastMonth.rate_limited.toLocaleString("en-US")}</td>
        </tr>
      ))}
    </DataTable>
  );
}
