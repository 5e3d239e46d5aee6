import type { Metadata } from "next";
import Link from "next/link";
import { authPageHref } from "@/lib/auth/auth-links";
import { currentUser } from "@/lib/auth/session";
import { queryOpportunities, type OpportunityFilter } from "@/lib/market/opportunities/opportunity-query";
import { canUsePortfolio } from "@/lib/actor";
import { DELAYED_PLAN as DELAYED, planNames, planOf, plansWith, type Plan } from "@/lib/plans";
import { filterSummary } from "@/lib/screener/filter-summary";
import { describeRecordingMoments, recordingMoments } from "@/lib/screener/recording-moments";
import { parseScreenerQuery, screenerHref, toggledSort, toSearchParams, type SearchParams } from "@/lib/screener/screener-query";
import { screenerView, type ScreenerView } from "@/lib/screener/screener-view";
import { DelayNotice } from "./delay-notice";
import { ExportLinks } from "./export-links";
import { FilterForm, OpenSavedFilters } from "./filter-form";
import { OpportunityTable, type RowActions, type SortHeading } from "./opportunity-table";
import { FilterProblems } from "./filter-problems";
import { FreshnessLine } from "./freshness-line";
import { Pager } from "./pager";
import { PendingNotice } from "./pending-notice";
import { ScreenerTabs } from "./screener-tabs";
import styles from "./screener.module.css";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Opportunity screener — Funding Opportunity Data Service" };

/**
 * Public: signed out, the page shows what the Free plan sees (delayed by its `dataDelayMinutes`)
 * and invites sign-up; rows then offer sign-in instead of actions.
 */
export default async function ScreenerPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const params = await searchParams;
  const search = toSearchParams(params).toString();
  const here = search ? `/opportunities?${search}` : "/opportunities";
  const user = await currentUser();
  const query = parseScreenerQuery(params);
  const now = new Date();
  const view = await screenerView(user?.tier ?? DELAYED.id, now);
  const raw = (name: string) => {
    const value = params[name];
    return typeof value === "string" ? value : "";
  };
  const values = {
    exchange: raw("exchange"),
    exchanges: venuesOf(params.exchanges),
    min_apr: raw("min_apr"),
    symbol: raw("symbol"),
    sort: raw("sort"),
    limit: raw("limit"),
  };
  const actions: RowActions = !user ? { kind: "sign-in", href: authPageHref("/signin", here) } : canUsePortfolio(user) ? { kind: "all" } : { kind: "chart" };

  return (
    <div className={`screener ${styles.screener}`}>
      <OpenSavedFilters bare={search === ""} />
      <div className={styles.heading}>
        <h1>Opportunity screener</h1>
        <Freshness view={view} now={now.getTime()} />
      </div>
      <ScreenerTabs current="pairs" params={params} />
      {(!user || view.delayed) && <DelayNotice signedIn={user !== null} returnTo={here} className={`notice ${styles.banner}`} />}

      {/* Keyed by the query, so its fields show the new URL's values after each navigation. */}
      <FilterForm key={search} values={values} active={filterSummary(values)} />

      {!query.ok ? (
        <FilterProblems problems={query.problems} resetHref="/opportunities" resetLabel="Show all opportunities" />
      ) : (
        // Keyed by the query (apart from the form's key: they are siblings), so a new page, sort or
        // filter starts without the last page's size quotes.
        <Results key={`results?${search}`} view={view} filter={query.filter} now={now.getTime()} actions={actions} plan={planOf(user?.tier ?? DELAYED.id)} />
      )}
    </div>
  );
}

/** One line: live, delayed or sample, as of when, and the feed status; the sample's recording moments folded. */
function Freshness({ view, now }: { view: ScreenerView; now: number }) {
  if (view.status === "pending") return null;
  const { asOf, sample } = view.snapshot;
  // The sample's recordings are from different days: say which venue's prices are from when.
  const moments = sample ? describeRecordingMoments(recordingMoments(view.snapshot.items)) : null;
  return (
    <FreshnessLine asOf={asOf} sample={sample} delayed={view.delayed} now={now} never="No market data has been published yet.">
      {sample && (
        <details className={styles.moments}>
          <summary>About the sample</summary>
          <p>
            Recorded venue responses shipped with the service, shown until the first live round completes; every row is marked{" "}
            <span className="badge badge-sample">sample</span>.
          </p>
          {moments && (
            <p data-testid="sample-moments">
              Prices recorded: {moments}. A price spread is shown only between venues recorded at the same moment.
            </p>
          )}
        </details>
      )}
    </FreshnessLine>
  );
}

const DAY_MS = 86_400_000;
/** How far back the screener's download reaches: the chart's 7 days, or less where the plan's exports span less. */
const DOWNLOAD_DAYS = 7;

function Results({ view, filter, now, actions, plan }: { view: ScreenerView; filter: OpportunityFilter; now: number; actions: RowActions; plan: Plan }) {
  if (view.status === "pending") return <PendingNotice availableAt={view.availableAt} />;
  if (view.snapshot.asOf === null) {
    return (
      <p className="panel" role="status">
        No opportunities yet: the service publishes them after its first ingestion round.
      </p>
    );
  }
  const page = queryOpportunities(view.snapshot, filter);
  const heading = (field: "apr" | "net_apr" | "open_interest", label: string): SortHeading => ({
    label,
    href: screenerHref(filter, { sort: toggledSort(filter.sort, field), offset: 0 }),
    direction: filter.sort === field ? "ascending" : filter.sort === `-${field}` ? "descending" : undefined,
  });
  const first = page.total === 0 ? 0 : page.offset + 1;
  const last = page.offset + page.items.length;
  const count = page.total === 0 ? "No opportunities match these filters." : `Showing ${first}–${last} of ${page.total}`;
  return (
    <>
      {page.items.length > 0 && (
        <OpportunityTable
          items={page.items.map((o) => view.snapshot.served(o, view.freshness))}
          renderedAt={now}
          freshness={view.freshness}
          asOf={view.snapshot.asOf}
          sample={view.snapshot.sample}
          actions={actions}
          count={`${count}${page.offset > 0 || page.has_more ? " · more pages below the table" : ""}`}
          exports={plan.features.export}
          sortHeadings={{
            apr: heading("apr", "APR"),
            net_apr: heading("net_apr", "Net APR"),
            open_interest: heading("open_interest", "Open interest"),
          }}
        />
      )}
      <Pager page={page} count={count} hrefAt={(offset) => screenerHref(filter, { offset })} />
      {page.items.length > 0 &&
        (plan.features.export ? (
          <ExportLinks
            label={`Funding settlements of the ${page.items.length} opportunities shown, both legs, last ${Math.min(DOWNLOAD_DAYS, plan.exportRangeDays)} days`}
            selection={{
              exchanges: page.items.flatMap((o) => [o.long.exchange, o.short.exchange]),
              symbols: page.items.map((o) => o.symbol),
              from: new Date(view.historyUntil.getTime() - Math.min(DOWNLOAD_DAYS, plan.exportRangeDays) * DAY_MS),
              to: view.historyUntil,
            }}
          />
        ) : (
          <p className="muted small-print">
            Funding-history downloads (CSV, Parquet) come with the {planNames(plansWith("export"))} plans: <Link href="/account/plan">upgrade</Link>.
          </p>
        ))}
      <p className="muted small-print">
        APR is the gross funding spread per year; net APR subtracts four taker fills spread over a 7-day holding. Rates are
        per funding interval. Open interest and volume are the smaller leg&apos;s. A leg marked <em>stale</em> has data older than
        three ingestion intervals: its rate may no longer hold. The same data and filters are available from{" "}
        <Link href="/docs">GET /v1/opportunities</Link>.
      </p>
    </>
  );
}

/** The venues the URL names, in one `exchanges=a,b` or one per checkbox (a form sent without JavaScript). */
function venuesOf(value: string | string[] | undefined): string[] {
  const values = Array.isArray(value) ? value : value === undefined ? [] : [value];
  return values.flatMap((v) => v.split(",")).map((v) => v.trim().toLowerCase()).filter(Boolean);
}
