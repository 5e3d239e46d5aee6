import type { Metadata } from "next";
import Link from "next/link";
import { currentUser } from "@/lib/auth/session";
import { formatUtc } from "@/lib/format-time";
import { queryCarry, type CarryFilter } from "@/lib/market/carry/carry-query";
import { DEFAULT_HOLDING_DAYS } from "@/lib/market/model/apr";
import { DELAYED_PLAN as DELAYED } from "@/lib/plans";
import { CARRY_PATH, carryHref, parseCarryScreenerQuery } from "@/lib/screener/carry-screener-query";
import { carryView, type CarryView } from "@/lib/screener/carry-view";
import { toggledSort, toSearchParams, type SearchParams } from "@/lib/screener/screener-query";
import { DelayNotice } from "../opportunities/delay-notice";
import { FilterProblems } from "../opportunities/filter-problems";
import { FreshnessLine } from "../opportunities/freshness-line";
import { Pager } from "../opportunities/pager";
import type { SortHeading } from "../opportunities/opportunity-table";
import { ScreenerTabs } from "../opportunities/screener-tabs";
import styles from "../opportunities/screener.module.css";
import { CarryFilterForm } from "./carry-filter-form";
import { CarryTable } from "./carry-table";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Spot–perp carry screener — Funding Opportunity Data Service" };

/**
 * The screener's carry tab: spot against perpetual, held or borrowed. Public as the perp pairs'
 * tab is: signed out and on the delayed plan it shows the set of at least that plan's delay ago.
 */
export default async function CarryPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const params = await searchParams;
  const search = toSearchParams(params).toString();
  const here = search ? `${CARRY_PATH}?${search}` : CARRY_PATH;
  const user = await currentUser();
  const query = parseCarryScreenerQuery(params);
  const now = new Date();
  const view = await carryView(user?.tier ?? DELAYED.id, now);
  const raw = (name: string) => toSearchParams(params).getAll(name).join(",");

  return (
    <div className={`screener ${styles.screener}`}>
      <div className={styles.heading}>
        <h1>Spot–perp carry</h1>
        <Freshness view={view} now={now.getTime()} />
      </div>
      {(!user || view.delayed) && <DelayNotice signedIn={user !== null} returnTo={here} className={`notice ${styles.banner}`} />}
      <ScreenerTabs current="carry" params={params} />

      <CarryFilterForm
        key={search}
        values={{ type: raw("type"), exchange: raw("exchange"), symbol: raw("symbol"), min_apr: raw("min_apr"), sort: raw("sort"), limit: raw("limit"), exchanges: raw("exchanges") }}
      />

      {!query.ok ? (
        <FilterProblems problems={query.problems} resetHref={CARRY_PATH} resetLabel="Show all carry opportunities" />
      ) : (
        <Results view={view} filter={query.filter} now={now.getTime()} />
      )}
    </div>
  );
}

/** One line: live, delayed or sample, and as of when. */
function Freshness({ view, now }: { view: CarryView; now: number }) {
  if (view.status === "pending") return null;
  const { asOf, sample } = view.snapshot;
  return (
    <FreshnessLine asOf={asOf} sample={sample} delayed={view.delayed} now={now} never="No carry data has been published yet." />
  );
}

function Results({ view, filter, now }: { view: CarryView; filter: CarryFilter; now: number }) {
  if (view.status === "pending") {
    return (
      <p className="panel" role="status">
        This server has read no carry set at least {DELAYED.dataDelayMinutes} minutes old yet, so there is nothing to show on the {DELAYED.name} plan
        {view.availableAt ? `: the first delayed set appears at ${formatUtc(view.availableAt)}` : ""}.
      </p>
    );
  }
  if (view.snapshot.asOf === null) {
    return (
      <p className="panel" role="status">
        No carry opportunities yet: the service publishes them with its market data, after the first ingestion round.
      </p>
    );
  }
  const page = queryCarry(view.snapshot, filter);
  const heading = (field: "apr" | "net_apr", label: string): SortHeading => ({
    label,
    href: carryHref(filter, { sort: toggledSort(filter.sort, field), offset: 0 }),
    direction: filter.sort === field ? "ascending" : filter.sort === `-${field}` ? "descending" : undefined,
  });
  const first = page.total === 0 ? 0 : page.offset + 1;
  const last = page.offset + page.items.length;
  const count =
    page.total === 0
      ? view.snapshot.count === 0
        ? "The set holds no carry opportunity: no spot market was found beside a perpetual of the same asset."
        : "No carry opportunities match these filters."
      : `Showing ${first}–${last} of ${page.total}`;
  return (
    <>
      {page.items.length > 0 && (
        <CarryTable
          items={page.items}
          renderedAt={now}
          sample={view.snapshot.sample}
          sortHeadings={{ apr: heading("apr", "APR"), net_apr: heading("net_apr", "Net APR") }}
        />
      )}
      <Pager page={page} count={count} hrefAt={(offset) => carryHref(filter, { offset })} />
      <p className="muted small-print">
        Held spot, short perpetual collects the perpetual&apos;s positive funding; borrowed spot, long perpetual collects negative funding
        and pays the spot venue&apos;s borrow rate, capped by what it lends. APR is the perpetual&apos;s funding per year (less the borrow
        rate); net APR subtracts the taker fees of opening and closing both legs spread over a {DEFAULT_HOLDING_DAYS}-day holding. Basis is
        the price gap at entry, beside the APR, not in it. The same data and filters are available from{" "}
        <Link href="/docs">GET /v1/carry-opportunities</Link>.
      </p>
    </>
  );
}
