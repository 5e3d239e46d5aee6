"use client";

import Link from "next/link";
import { useRouter } from "next/navigation";
import { Fragment, useRef, useState, type KeyboardEvent, type ReactNode } from "react";
import type { Freshness } from "@/lib/market/model/leg-freshness";
import type { ServedLeg, ServedOpportunity } from "@/lib/market/model/types";
import { aprShade, persistenceShade, type Shade } from "@/lib/screener/colour-scale";
import { formatAge, formatApr, formatBps, formatFundingRate, formatInterval, formatUsdCompact } from "@/lib/screener/format";
import { legDetails } from "@/lib/screener/leg-details";
import { persistenceCell } from "@/lib/screener/persistence-cell";
import { priceSpreadNote } from "@/lib/screener/price-spread-note";
import { rowKeyAction } from "@/lib/screener/row-keys";
import { ALWAYS_SHOWN, COLUMN_LABELS, type OptionalColumn } from "@/lib/screener/screener-prefs";
import { opportunityHref } from "@/lib/screener/screener-query";
import type { ScreenerQuote } from "@/lib/screener/screener-quotes";
import { staleLegNote } from "@/lib/screener/stale-leg-note";
import { FundingHistoryChart } from "./funding-history-chart";
import { AddPositionPanel, SimulatePanel } from "./opportunity-actions";
import { QuotePanel, SizeControl, SizedApr } from "./quote-panel";
import { useScreenerPrefs } from "./screener-prefs-store";
import { TableToolbar } from "./table-toolbar";
import styles from "./screener.module.css";

type Panel = "chart" | "quote" | "simulate" | "add";
const PANEL_LABELS: Record<Panel, [closed: string, open: string]> = {
  chart: ["Chart", "Hide chart"],
  quote: ["Quote", "Hide quote"],
  simulate: ["Simulate", "Hide simulation"],
  add: ["Add to portfolio", "Cancel adding"],
};
/** A panel's element id ("history-" for the chart: the screener tests find it by that). */
const panelId = (panel: Panel, id: string) => `${panel === "chart" ? "history" : panel}-${id}`;
const detailsId = (id: string) => `details-${id}`;

export interface SortHeading {
  label: string;
  href: string;
  /** How the table is sorted by this column now, if it is. */
  direction: "ascending" | "descending" | undefined;
}

/**
 * What a row offers beyond its figures: signed out, a link to sign in; on a delayed plan, the
 * funding chart; on a live one also quotes at a size, simulations and the portfolio.
 */
export type RowActions = { kind: "sign-in"; href: string } | { kind: "chart" } | { kind: "all" };

interface Props {
  /** As served at `freshness`: each leg flagged stale or not. */
  items: ServedOpportunity[];
  /** Epoch ms of the server's render, so "updated" reads the same on both sides of hydration. */
  renderedAt: number;
  /** The moment and threshold the legs were judged by, which a stale leg's badge explains. */
  freshness: Freshness;
  /** The set's data_as_of, which dates a leg of unknown time. */
  asOf: string | null;
  /** True when the set is the bundled offline sample: every row says so. */
  sample: boolean;
  sortHeadings: { apr: SortHeading; net_apr: SortHeading; open_interest: SortHeading };
  actions: RowActions;
  /** "Showing 1–50 of 301", at the toolbar's start. */
  count: ReactNode;
  /** Whether the history chart offers its settlements as a download (plans with exports). */
  exports?: boolean;
}

/**
 * The screener's table: symbol, legs, APR and net APR always, the optional columns the browser
 * chose, and every other field and the row's actions in a details row on demand. Rows take the
 * focus in turn (arrow keys or j/k, Enter opens the opportunity's page, Space its details).
 */
export function OpportunityTable({ items, renderedAt, freshness, asOf, sample, sortHeadings, actions, count, exports = false }: Props) {
  const router = useRouter();
  const [prefs] = useScreenerPrefs();
  const [open, setOpen] = useState<{ id: string; panel: Panel | null } | null>(null);
  const [sized, setSized] = useState<{ quotes: Map<string, ScreenerQuote>; size: number } | null>(null);
  const [active, setActive] = useState(0);
  const rows = useRef<(HTMLTableRowElement | null)[]>([]);
  const columns = prefs.columns;
  const shown = (column: OptionalColumn) => columns.includes(column);
  // The columns always shown and the details toggle, the sized column and the optional ones.
  const span = ALWAYS_SHOWN.length + 1 + (sized ? 1 : 0) + columns.length;
  // A size set above the table goes with the row to the opportunity's page, whose quote opens at it.
  const size = sized?.size ?? null;
  const panels: Panel[] = actions.kind === "all" ? ["chart", "quote", "simulate", "add"] : actions.kind === "chart" ? ["chart"] : [];

  const toggleDetails = (id: string) => setOpen(open?.id === id ? null : { id, panel: null });
  const onRowKey = (event: KeyboardEvent<HTMLTableRowElement>, index: number, id: string) => {
    // Keys typed into a field or pressed on a link inside the row are theirs.
    if (event.target !== event.currentTarget) return;
    const action = rowKeyAction(event.key, index, items.length);
    if (action === null) return;
    event.preventDefault();
    if (action.kind === "focus") rows.current[action.index]?.focus();
    else if (action.kind === "open") router.push(opportunityHref(id, size));
    else toggleDetails(id);
  };

  return (
    <div className={styles.tableBox}>
      <TableToolbar count={count}>
        {actions.kind === "all" && (
          <SizeControl ids={items.map((o) => o.id)} onQuotes={(quotes, size) => setSized(quotes && size !== null ? { quotes, size } : null)} />
        )}
      </TableToolbar>
      <table className={`screener-table ${styles.table} ${prefs.density === "compact" ? styles.compact : ""}`} aria-label="Opportunities" aria-describedby="screener-keys">
        <thead>
          <tr>
            <th scope="col">Symbol</th>
            <th scope="col" className={styles.wide}>
              Long leg
            </th>
            <th scope="col" className={styles.wide}>
              Short leg
            </th>
            <SortableHeading heading={sortHeadings.apr} />
            <SortableHeading heading={sortHeadings.net_apr} />
            {sized && (
              <th scope="col" className={`num ${styles.wide}`}>
                Net APR at ${sized.size.toLocaleString("en-US")}
              </th>
            )}
            {shown("apr_1d") && <NumHeading>{COLUMN_LABELS.apr_1d}</NumHeading>}
            {shown("apr_7d") && <NumHeading>{COLUMN_LABELS.apr_7d}</NumHeading>}
            {shown("persistence") && (
              <NumHeading title="How steadily the pair paid: share of the last 7 days' settlements that paid the right way, and the 7-day median APR">
                {COLUMN_LABELS.persistence}
              </NumHeading>
            )}
            {shown("spread") && <NumHeading>{COLUMN_LABELS.spread}</NumHeading>}
            {shown("open_interest") && <SortableHeading heading={sortHeadings.open_interest} wide />}
            {shown("volume") && <NumHeading>{COLUMN_LABELS.volume}</NumHeading>}
            {shown("updated") && (
              <th scope="col" className={styles.wide}>
                {COLUMN_LABELS.updated}
              </th>
            )}
            <th scope="col">
              <span className="visually-hidden">Details and actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {items.map((o, index) => {
            const expanded = open?.id === o.id;
            return (
              <Fragment key={o.id}>
                <tr
                  data-opportunity={o.id}
                  data-sample={sample || undefined}
                  className={expanded ? "expanded" : undefined}
                  ref={(element) => {
                    rows.current[index] = element;
                  }}
                  tabIndex={index === active ? 0 : -1}
                  onFocus={() => setActive(index)}
                  onKeyDown={(event) => onRowKey(event, index, o.id)}
                >
                  <th scope="row" className={styles.symbol}>
                    <Link href={opportunityHref(o.id, size)}>{o.symbol}</Link>
                    {sample && (
                      <span className="badge badge-sample" data-testid="sample-row" title="Bundled sample recording, not live data">
                        sample<span className="visually-hidden"> (bundled recording, not live data)</span>
                      </span>
                    )}
                    {/* On a phone the leg columns give way: the venues under the symbol instead. */}
                    <span className={styles.phoneLegs} aria-hidden="true">
                      {o.long.exchange} → {o.short.exchange}
                    </span>
                  </th>
                  <td data-col="long" className={styles.wide}>
                    <Leg leg={o.long} note={o.long.stale ? staleLegNote(o.long, asOf, freshness) : null} />
                  </td>
                  <td data-col="short" className={styles.wide}>
                    <Leg leg={o.short} note={o.short.stale ? staleLegNote(o.short, asOf, freshness) : null} />
                  </td>
                  <Shaded column="apr" shade={aprShade(o.apr)}>
                    {formatApr(o.apr)}
                  </Shaded>
                  <Shaded column="net_apr" shade={aprShade(o.net_apr)}>
                    {formatApr(o.net_apr)}
                  </Shaded>
                  {sized && (
                    <td data-col="sized" className={`num ${styles.wide}`}>
                      <span data-testid="sized-apr">
                        <SizedApr quote={sized.quotes.get(o.id)} />
                      </span>
                    </td>
                  )}
                  {shown("apr_1d") && <Num column="apr_1d">{formatApr(o.apr_1d_avg)}</Num>}
                  {shown("apr_7d") && <Num column="apr_7d">{formatApr(o.apr_7d_avg)}</Num>}
                  {shown("persistence") && (
                    <Shaded column="persistence" shade={persistenceShade(o.persistence.paid_share_7d)}>
                      <PersistenceSummary opportunity={o} />
                    </Shaded>
                  )}
                  {shown("spread") && (
                    <Num column="spread">
                      <PriceSpread opportunity={o} />
                    </Num>
                  )}
                  {shown("open_interest") && <Num column="open_interest">{formatUsdCompact(o.open_interest_usd)}</Num>}
                  {shown("volume") && <Num column="volume">{formatUsdCompact(o.volume_24h_usd)}</Num>}
                  {shown("updated") && (
                    <td data-col="updated" className={`nowrap ${styles.wide}`} title={o.updated_at}>
                      {formatAge(o.updated_at, renderedAt)}
                    </td>
                  )}
                  <td className={styles.toggleCell}>
                    <button
                      type="button"
                      className={`secondary small ${styles.toggle}`}
                      aria-expanded={expanded}
                      aria-controls={expanded ? detailsId(o.id) : undefined}
                      onClick={() => toggleDetails(o.id)}
                    >
                      <span aria-hidden="true">{expanded ? "▴" : "▾"}</span>
                      <span className={styles.toggleText} aria-hidden="true">
                        {" "}
                        Details
                      </span>
                      <span className="visually-hidden">
                        Details of {o.symbol}, long {o.long.exchange}, short {o.short.exchange}
                      </span>
                    </button>
                  </td>
                </tr>
                {expanded && (
                  <tr className={`chart-row ${styles.detailsRow}`} id={detailsId(o.id)}>
                    <td colSpan={span}>
                      <RowDetails
                        opportunity={o}
                        href={opportunityHref(o.id, size)}
                        renderedAt={renderedAt}
                        actions={actions}
                        panels={panels}
                        panel={open.panel}
                        onPanel={(panel) => setOpen({ id: o.id, panel: open.panel === panel ? null : panel })}
                      >
                        {open.panel === "chart" && <FundingHistoryChart id={o.id} symbol={o.symbol} exports={exports} />}
                        {open.panel === "quote" && <QuotePanel id={o.id} initialSize={sized?.size ?? null} />}
                        {open.panel === "simulate" && <SimulatePanel id={o.id} />}
                        {open.panel === "add" && <AddPositionPanel id={o.id} />}
                      </RowDetails>
                    </td>
                  </tr>
                )}
              </Fragment>
            );
          })}
        </tbody>
      </table>
      <p className={`muted small-print ${styles.keys}`} id="screener-keys">
        Keyboard: <kbd>↑</kbd> <kbd>↓</kbd> or <kbd>j</kbd> <kbd>k</kbd> move between rows, <kbd>Enter</kbd> opens the opportunity,{" "}
        <kbd>Space</kbd> shows its details.
      </p>
    </div>
  );
}

/**
 * Every field the row leaves out, both legs in full, and the row's actions; `children` is the
 * open action's panel.
 */
function RowDetails({
  opportunity: o,
  href,
  renderedAt,
  actions,
  panels,
  panel,
  onPanel,
  children,
}: {
  opportunity: ServedOpportunity;
  /** The opportunity's page, with the size set above the table. */
  href: string;
  renderedAt: number;
  actions: RowActions;
  panels: Panel[];
  panel: Panel | null;
  onPanel: (panel: Panel) => void;
  children: ReactNode;
}) {
  const persistence = persistenceCell(o.persistence);
  return (
    <div className={styles.details}>
      <dl className={styles.fields}>
        <LegFields side="Long" leg={o.long} />
        <LegFields side="Short" leg={o.short} />
        <Field term="1d / 7d avg APR">
          {formatApr(o.apr_1d_avg)} / {formatApr(o.apr_7d_avg)}
        </Field>
        <Field term="Persistence">
          <span className={styles.preLine}>{persistence.title}</span>
        </Field>
        <Field term="Price spread">
          {formatBps(o.price_spread_bps)}
          {o.price_spread_bps === null && priceSpreadNote(o) !== null && <> ({priceSpreadNote(o)})</>}
        </Field>
        <Field term="Open interest / volume 24h">
          {formatUsdCompact(o.open_interest_usd)} / {formatUsdCompact(o.volume_24h_usd)}
        </Field>
        <Field term="Updated">
          {formatAge(o.updated_at, renderedAt)} ({o.updated_at.slice(0, 19).replace("T", " ")} UTC)
        </Field>
      </dl>
      <p className={styles.actions}>
        <Link href={href}>Open {o.symbol}&apos;s page</Link>
        {panels.map((p) => (
          <button key={p} type="button" className="secondary small" aria-expanded={panel === p} aria-controls={panel === p ? panelId(p, o.id) : undefined} onClick={() => onPanel(p)}>
            {PANEL_LABELS[p][panel === p ? 1 : 0]}
          </button>
        ))}
        {actions.kind === "sign-in" && (
          <span>
            (its funding chart is there); <Link href={actions.href}>sign in</Link> to quote it at your size, simulate it or add it to a portfolio.
          </span>
        )}
      </p>
      {panel !== null && (
        <div id={panelId(panel, o.id)} className={styles.panel}>
          {children}
        </div>
      )}
    </div>
  );
}

function Field({ term, children }: { term: string; children: ReactNode }) {
  return (
    <div>
      <dt>{term}</dt>
      <dd>{children}</dd>
    </div>
  );
}

/** A leg in full: market, rate and interval, forecast, last settlement and bounds. */
function LegFields({ side, leg }: { side: string; leg: ServedLeg }) {
  const details = legDetails(leg);
  return (
    <Field term={`${side} leg`}>
      <strong>{leg.exchange}</strong> <code>{leg.market}</code> {formatFundingRate(leg.funding_rate)} / {formatInterval(leg.funding_interval_hours)}
      {[details.predicted, details.settled, details.bounds]
        .filter((line) => line !== null)
        .map((line) => (
          <span key={line} className={styles.line}>
            {line}
          </span>
        ))}
    </Field>
  );
}

export function SortableHeading({ heading, wide = false }: { heading: SortHeading; wide?: boolean }) {
  const arrow = heading.direction === "descending" ? " ▼" : heading.direction === "ascending" ? " ▲" : "";
  return (
    <th scope="col" className={wide ? `num ${styles.wide}` : "num"} aria-sort={heading.direction ?? "none"}>
      <Link href={heading.href}>
        {heading.label}
        {arrow}
      </Link>
    </th>
  );
}

function NumHeading({ children, title }: { children: ReactNode; title?: string }) {
  return (
    <th scope="col" className={`num ${styles.wide}`} title={title}>
      {children}
    </th>
  );
}

/**
 * A leg in the row: venue, rate and interval, and badges for a rate at its cap, a recent interval
 * change, and stale data (`note` says how old), each explained as a tooltip and to screen readers.
 */
function Leg({ leg, note }: { leg: ServedLeg; note: string | null }) {
  const details = legDetails(leg);
  return (
    <span className="leg">
      <strong>{leg.exchange}</strong>{" "}
      {note !== null && (
        <span className="badge badge-stale" title={note} data-testid="stale-leg">
          stale<span className="visually-hidden"> ({note})</span>
        </span>
      )}
      <span className={`leg-rate ${styles.legRate}`}>
        {formatFundingRate(leg.funding_rate)}
        <small> / {formatInterval(leg.funding_interval_hours)}</small>
      </span>
      {details.badges.map((badge) => (
        <span key={badge.kind} className={`badge badge-${badge.kind}`} title={badge.note} data-testid={badge.kind}>
          {badge.label}
          <span className="visually-hidden"> ({badge.note})</span>
        </span>
      ))}
    </span>
  );
}

/**
 * The spread, or "—" with the reason in words: as a tooltip for the pointer and as visually hidden
 * text for screen readers, which do not reliably announce a title.
 */
function PriceSpread({ opportunity }: { opportunity: ServedOpportunity }) {
  const note = priceSpreadNote(opportunity);
  if (opportunity.price_spread_bps !== null || note === null) return formatBps(opportunity.price_spread_bps);
  return (
    <span className="spread-unavailable" title={note}>
      {formatBps(null)}
      <span className="visually-hidden"> ({note})</span>
    </span>
  );
}

/** The pair's persistence in one line; every figure as a tooltip and to screen readers. */
function PersistenceSummary({ opportunity }: { opportunity: ServedOpportunity }) {
  const cell = persistenceCell(opportunity.persistence);
  return (
    <span className="persistence" title={cell.title} data-testid="persistence">
      {cell.text}
      <span className="visually-hidden"> ({cell.title})</span>
    </span>
  );
}

/** A figure on the colour scale: the shade repeats the number, which stays. */
export function Shaded({ column, shade, children }: { column: string; shade: Shade | null; children: ReactNode }) {
  const className = ["num", shade ? styles[`shade-${shade}`] : "", column === "persistence" ? styles.wide : ""].filter(Boolean).join(" ");
  return (
    <td data-col={column} data-shade={shade ?? undefined} className={className}>
      {children}
    </td>
  );
}

function Num({ column, children }: { column: OptionalColumn; children: ReactNode }) {
  return (
    <td data-col={column} className={`num ${styles.wide}`}>
      {children}
    </td>
  );
}
