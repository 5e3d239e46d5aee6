import type { Metadata } from "next";
import Link from "next/link";
import { DataTable } from "@/app/components/data-table";
import { ScrollRegion } from "@/app/components/scroll-region";
import { actorFromSession } from "@/lib/actor";
import { appServices } from "@/lib/app-services";
import { requireUser } from "@/lib/auth/session";
import { CHART_SERIES } from "@/lib/usage/usage-chart-model";
import { emptyCounts, type UsageCounts } from "@/lib/usage/usage-counts";
import { readAccountUsage } from "@/lib/usage/read-account-usage";
import { resolveUsageRange, USAGE_RETENTION_DAYS } from "@/lib/usage/usage-range";
import type { KeyUsage, UsageReport } from "@/lib/usage/usage-report";
import { UsageChart, UsageLegend } from "./usage-chart";
import styles from "./usage.module.css";

export const metadata: Metadata = { title: "API usage — Funding Opportunity Data Service" };
export const dynamic = "force-dynamic";

export default async function UsagePage() {
  const user = await requireUser("/account/usage");
  const services = appServices();
  const actor = actorFromSession(user);
  const now = new Date();
  // The same numbers GET /v1/usage gives with its defaults: 24 hourly and 30 daily buckets.
  const [day, month] = await Promise.all([
    readAccountUsage(services, actor, resolveUsageRange({ granularity: "hour" }, now), now),
    readAccountUsage(services, actor, resolveUsageRange({ granularity: "day" }, now), now),
  ]);

  return (
    <section aria-labelledby="usage-heading">
      <h2 id="usage-heading">Usage</h2>
      <p className="muted">
        Requests made with your API keys, live and test alike, counted within a few seconds of being answered. Hours and
        days are UTC; usage is kept {USAGE_RETENTION_DAYS} days. Programs can read the same numbers from{" "}
        <Link href="/docs#usage">
          <code>GET /v1/usage</code>
        </Link>
        .
      </p>
      <UsageLegend />

      <section aria-labelledby="account-usage-heading">
        <h3 id="account-usage-heading">All keys</h3>
        <CountsTable caption="Requests made with all your keys" day={day.totals} month={month.totals} />
        <div className={styles.charts}>
          <UsageChart caption="Requests per hour, last 24 hours" buckets={day.buckets} granularity="hour" />
          <UsageChart caption="Requests per day, last 30 days" buckets={month.buckets} granularity="day" />
        </div>
        <RoutesTable report={month} caption="Requests per route, last 30 days" />
      </section>

      {month.keys.length === 0 ? (
        <p>
          No API keys yet. <Link href="/account/api-keys">Create one under API Keys</Link>, then its usage appears here.
        </p>
      ) : (
        month.keys.map((key) => <KeyPanel key={key.id} month={key} day={day.keys.find((k) => k.id === key.id)} dayReport={day} />)
      )}
    </section>
  );
}

function KeyPanel({ month, day, dayReport }: { month: KeyUsage; day: KeyUsage | undefined; dayReport: UsageReport }) {
  const headingId = `key-usage-${month.id}`;
  // A key used in the last 30 days but revoked before the last 24 hours has no entry there: zeros.
  const dayBuckets = day?.buckets ?? dayReport.buckets.map((bucket) => ({ ...bucket, ...emptyCounts(), peak_per_minute: 0 }));
  return (
    <section className="panel" aria-labelledby={headingId}>
      <h3 id={headingId}>
        {month.name} <code className="nowrap">{month.prefix}</code> <span className="muted">{month.mode}</span>
        {!month.active && <span className="status-revoked"> (no longer active)</span>}
      </h3>
      <div className={styles.limit}>
        <PeakLine label="Busiest minute, last 24 hours" peak={day?.peak_per_minute ?? 0} limit={month.limit_per_minute} />
        <PeakLine label="Busiest minute, last 30 days" peak={month.peak_per_minute} limit={month.limit_per_minute} />
      </div>
      <CountsTable caption={`Requests made with ${month.name}`} day={day?.totals ?? emptyCounts()} month={month.totals} />
      <div className={styles.charts}>
        <UsageChart caption="Per hour, last 24 hours" buckets={dayBuckets} granularity="hour" />
        <UsageChart caption="Per day, last 30 days" buckets={month.buckets} granularity="day" />
      </div>
    </section>
  );
}

function PeakLine({ label, peak, limit }: { label: string; peak: number; limit: number }) {
  const share = Math.round((peak / limit) * 100);
  return (
    <p data-testid="peak">
      {label}: peak <strong>{peak}</strong> of {limit} req/min ({share} %){" "}
      <meter min={0} max={limit} low={limit * 0.7} high={limit * 0.9} optimum={0} value={peak} aria-label={`${label}: ${share} % of the limit`} />
    </p>
  );
}

function CountsTable({ caption, day, month }: { caption: string; day: UsageCounts; month: UsageCounts }) {
  return (
    <DataTable
      className={styles.counts}
      caption={caption}
      columns={["Outcome", "Last 24 hours", "Last 30 days"]}
    >
      <tr>
        <th scope="row">All requests</th>
        <td>{day.requests.toLocaleString("en-US")}</td>
        <td>{month.requests.toLocaleString("en-US")}</td>
      </tr>
      {CHART_SERIES.map((series) => (
        <tr key={series.kind}>
          <th scope="row">{series.label}</th>
          <td>{day[series.kind].toLocaleString("en-US")}</td>
          <td>{month[series.kind].toLocaleString("en-US")}</td>
        </tr>
      ))}
    </DataTable>
  );
}

function RoutesTable({ report, caption }: { report: UsageReport; caption: string }) {
  if (report.routes.length === 0) return <p className="muted">No requests in the last 30 days.</p>;
  return (
    <ScrollRegion label={caption}>
      <table className={styles.counts}>
        <caption>{caption}</caption>
        <thead>
          <tr>
            <th scope="col">Route</th>
            <th scope="col">Requests</th>
            {CHART_SERIES.map((series) => (
              <th scope="col" key={series.kind}>
                {series.label}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {report.routes.map((route) => (
            <tr key={route.route}>
              <th scope="row">
                <code>{route.route}</code>
              </th>
              <td>{route.requests.toLocaleString("en-US")}</td>
              {CHART_SERIES.map((series) => (
                <td key={series.kind}>{route[series.kind].toLocaleString("en-US")}</td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </ScrollRegion>
  );
}
