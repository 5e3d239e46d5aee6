import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { canUsePortfolio } from "@/lib/actor";
import { appServices } from "@/lib/app-services";
import { authPageHref } from "@/lib/auth/auth-links";
import { currentUser } from "@/lib/auth/session";
import { publicOrigin } from "@/lib/config/public-url";
import { formatUtc } from "@/lib/format-time";
import { DELAYED_PLAN as DELAYED, planNames, planOf, plansWith } from "@/lib/plans";
import { formatAge, formatApr, formatBps, formatFundingRate, formatUsdCompact } from "@/lib/screener/format";
import { priceSpreadNote } from "@/lib/screener/price-spread-note";
import { opportunityHistory } from "@/lib/screener/opportunity-history";
import { opportunityHref } from "@/lib/screener/screener-query";
import { screenerView } from "@/lib/screener/screener-view";
import { staleLegNote } from "@/lib/screener/stale-leg-note";
import { DataBadge } from "../data-badge";
import { DelayNotice } from "../delay-notice";
import { FundingHistoryChart } from "../funding-history-chart";
import { AddPositionPanel, SimulatePanel } from "../opportunity-actions";
import { PendingNotice } from "../pending-notice";
import { QuotePanel } from "../quote-panel";
import { LegFieldsTable } from "./leg-fields-table";
import { PersistenceFigures } from "./persistence-figures";
import styles from "./opportunity.module.css";

export const dynamic = "force-dynamic";

type Params = Promise<{ id: string }>;
type Search = Promise<Record<string, string | string[] | undefined>>;

/** The id as the URL carries it: Next hands a segment over still percent-encoded in some cases. */
function idOf(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

export async function generateMetadata({ params }: { params: Params }): Promise<Metadata> {
  return { title: `${idOf((await params).id)}: funding opportunity — Funding Opportunity Data Service` };
}

/** A size in USD from `?size=`, which the screener's row links carry when its size control is set; null when absent or not a size. */
function sizeOf(value: string | string[] | undefined): number | null {
  const size = typeof value === "string" ? Number(value) : Number.NaN;
  return Number.isFinite(size) && size > 0 ? size : null;
}

export default async function OpportunityPage({ params, searchParams }: { params: Params; searchParams: Search }) {
  const id = idOf((await params).id);
  const size = sizeOf((await searchParams).size);
  const user = await currentUser();
  const now = new Date();
  // Visitors see what the delayed plan sees: the set of DELAYED.dataDelayMinutes ago.
  const view = await screenerView(user?.tier ?? DELAYED.id, now);
  const here = opportunityHref(id);

  if (view.status === "pending") {
    return (
      <div className={styles.page}>
        <h1>{id}</h1>
        <PendingNotice availableAt={view.availableAt} />
      </div>
    );
  }
  const item = view.snapshot.byId(id);
  if (!item) notFound();
  const o = view.snapshot.served(item, view.freshness);
  const history = await opportunityHistory(appServices(), view, item);
  const { asOf, sample } = view.snapshot;
  const actions = user !== null && canUsePortfolio(user);
  const signIn = authPageHref("/signin", here);
  const signUp = authPageHref("/signup", here);
  const spreadNote = o.price_spread_bps === null ? priceSpreadNote(o) : null;
  const curl = `curl -sS "${publicOrigin()}/v1${opportunityHref(id)}" -H "Authorization: Bearer $FUNDING_DATA_API_KEY"`;

  return (
    <div className={styles.page}>
      <p className={styles.crumbs}>
        <Link href="/opportunities">Screener</Link> / {o.symbol}
      </p>
      <h1>
        {o.symbol}: long {o.long.exchange}, short {o.short.exchange}
      </h1>
      <p className="freshness" data-testid="freshness">
        <DataBadge sample={sample} delayed={view.delayed} delayMinutes={DELAYED.dataDelayMinutes} />{" "}
        {asOf && (
          <>
            Data as of <time dateTime={asOf}>{formatUtc(asOf)}</time> ({formatAge(asOf, now.getTime())}).
          </>
        )}{" "}
        <code>{o.id}</code>
      </p>
      {sample && (
        <p className="notice" role="note">
          These are recorded venue responses shipped with the service, shown until its first live round: not a live market.
          Their funding history is the recording&apos;s, marked <em>sample</em> in the settlement tables.
        </p>
      )}
      {view.delayed && <DelayNotice signedIn={user !== null} returnTo={here} />}

      <dl className={styles.figures} data-testid="summary">
        <div>
          <dt>APR</dt>
          <dd>{formatApr(o.apr)}</dd>
        </div>
        <div>
          <dt>Net APR</dt>
          <dd className={o.net_apr < 0 ? "negative" : undefined}>{formatApr(o.net_apr)}</dd>
        </div>
        <div>
          <dt>1d / 7d avg APR</dt>
          <dd>
            {formatApr(o.apr_1d_avg)} / {formatApr(o.apr_7d_avg)}
          </dd>
        </div>
        <div>
          <dt>Funding spread (8h)</dt>
          <dd>{formatFundingRate(o.funding_spread_8h)}</dd>
        </div>
        <div>
          <dt>Price spread</dt>
          <dd>
            {formatBps(o.price_spread_bps)}
            {spreadNote && <small className={styles.age}>{spreadNote}</small>}
          </dd>
        </div>
        <div>
          <dt>Open interest / volume 24h</dt>
          <dd>
            {formatUsdCompact(o.open_interest_usd)} / {formatUsdCompact(o.volume_24h_usd)}
          </dd>
        </div>
        <div>
          <dt>Updated</dt>
          <dd>
            <time dateTime={o.updated_at}>{formatUtc(o.updated_at)}</time>
            {o.stale && <span className="badge badge-stale">stale</span>}
          </dd>
        </div>
      </dl>

      <section aria-labelledby="legs-heading">
        <h2 id="legs-heading">Legs</h2>
        <LegFieldsTable
          long={o.long}
          short={o.short}
          atMs={view.freshness.at}
          staleNotes={{
            long: o.long.stale ? staleLegNote(o.long, asOf, view.freshness) : null,
            short: o.short.stale ? staleLegNote(o.short, asOf, view.freshness) : null,
          }}
        />
        {view.delayed && <p className="muted">Ages are at the moment the delayed view stands for, {DELAYED.dataDelayMinutes} minutes ago.</p>}
      </section>

      <section aria-labelledby="persistence-heading">
        <h2 id="persistence-heading">Persistence</h2>
        <PersistenceFigures persistence={o.persistence} />
      </section>

      <section aria-labelledby="history-heading">
        <h2 id="history-heading">Funding history, 7 days</h2>
        <FundingHistoryChart id={o.id} symbol={o.symbol} history={history} exports={user !== null && planOf(user.tier).features.export} />
      </section>

      <section aria-labelledby="trade-heading">
        <h2 id="trade-heading">Quote, simulate, add to portfolio</h2>
        {actions ? (
          <>
            <h3>Quote at your size</h3>
            <p className="muted">Fills both legs against the venues&apos; order books now, with your taker fees.</p>
            <QuotePanel id={o.id} initialSize={size} />
            <h3>Simulate</h3>
            <SimulatePanel id={o.id} />
            <h3>Add to portfolio</h3>
            <AddPositionPanel id={o.id} />
          </>
        ) : user ? (
          <p className="notice" role="note" data-testid="actions-upgrade">
            Quotes at a size, simulations and the portfolio come with the {planNames(plansWith("portfolio"))} plans.{" "}
            <Link href="/account/plan">Upgrade your plan</Link>
          </p>
        ) : (
          <p className="notice" role="note" data-testid="actions-sign-in">
            <Link href={signIn}>Sign in</Link> to quote this pair at your size, simulate it or add it to your portfolio (new here?{" "}
            <Link href={signUp}>create an account</Link>).
          </p>
        )}
      </section>

      <section aria-labelledby="api-heading">
        <h2 id="api-heading">The same in the API</h2>
        <p>
          <Link href="/docs#reference">
            <code>GET /v1/opportunities/{"{id}"}</code>
          </Link>{" "}
          answers this opportunity with both legs and their 7 days of settlements (and <code>/v1/opportunities/{"{id}"}/quote</code> its quote at a
          size). With an API key:
        </p>
        <pre className={styles.curl} data-testid="curl">
          <code>{curl}</code>
        </pre>
      </section>
    </div>
  );
}
