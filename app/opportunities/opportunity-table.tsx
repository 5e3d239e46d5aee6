"use client";

import Link from "next/link";
import { Fragment, useState, type ReactNode } from "react";
import type { Freshness } from "@/lib/market/model/leg-freshness";
import type { ServedLeg, ServedOpportunity } from "@/lib/market/model/types";
import { formatAge, formatApr, formatBps, formatFundingRate, formatInterval, formatUsdCompact } from "@/lib/screener/format";
import { legDetails } from "@/lib/screener/leg-details";
import { persistenceCell } from "@/lib/screener/persistence-cell";
import { priceSpreadNote } from "@/lib/screener/price-spread-note";
import { staleLegNote } from "@/lib/screener/stale-leg-note";
import { FundingHistoryChart } from "./funding-history-chart";
import { AddPositionPanel, SimulatePanel } from "./opportunity-actions";
import { QuotePanel, SizeControl, SizedApr } from "./quote-panel";
import type { ScreenerQuote } from "@/lib/screener/screener-quotes";

type Panel = "chart" | "quote" | "simulate" | "add";
const PANEL_LABELS: Record<Panel, [closed: string, open: string]> = {
  chart: ["Chart", "Hide chart"],
  quote: ["Quote", "Hide quote"],
  simulate: ["Simulate", "Hide simulation"],
  add: ["Add to portfolio", "Cancel adding"],
};
/** The expanded row's id for each panel ("history-" for the chart: the screener tests find its row by it). */
const panelRowId = (panel: Panel, id: string) => `${panel === "chart" ? "history" : panel}-${id}`;

const COLUMNS = 13;

export interface SortHeading {
  label: string;
  href: string;
  /** How the table is sorted by this column now, if it is. */
  direction: "ascending" | "descending" | undefined;
}

interface Props {
  /** As served at `freshness`: each leg flagged stale or not. */
  items: ServedOpportunity[];
  /** Epoch ms of the server's render, so "updated" reads the same on both sides of hydration. */
  renderedAt: number;
  /** The moment and threshold the legs were judged by, which a stale leg's badge explains. */
  freshness: Freshness;
  /** The set's data_as_of, which dates a leg of unknown time. */
  asOf: string | null;
  sortHeadings: { apr: SortHeading; net_apr: SortHeading; open_interest: SortHeading };
  /** Whether rows offer "Simulate" and "Add to portfolio" (plans with live data). */
  portfolio?: boolean;
  /** Whether the history chart offers its settlements as a download (plans with exports). */
  exports?: boolean;
}

export function OpportunityTable({ items, renderedAt, freshness, asOf, sortHeadings, portfolio = false, exports = false }: Props) {
  const [open, setOpen] = useState<{ id: string; panel: Panel } | null>(null);
  // Quotes at a size are for paid plans, as simulations are (app/api/opportunities/quotes says why).
  const panels: Panel[] = portfolio ? ["chart", "quote", "simulate", "add"] : ["chart"];
  const [sized, setSized] = useState<{ quotes: Map<string, ScreenerQuote>; size: number } | null>(null);
  return (
    <div className="table-scroll">
      {portfolio && (
        <SizeControl ids={items.map((o) => o.id)} onQuotes={(quotes, size) => setSized(quotes && size !== null ? { quotes, size } : null)} />
      )}
      <table className="screener-table" aria-label="Opportunities">
        <thead>
          <tr>
            <th scope="col">Symbol</th>
            <th scope="col">Long leg</th>
            <th scope="col">Short leg</th>
            <SortableHeading heading={sortHeadings.apr} />
            <SortableHeading heading={sortHeadings.net_apr} />
            {sized && (
              <th scope="col" className="num">
                Net APR at ${sized.size.toLocaleString("en-US")}
              </th>
            )}
            <th scope="col" className="num">
              1d avg APR
            </th>
            <th scope="col" className="num">
              7d avg APR
            </th>
            <th scope="col" className="num" title="How steadily the pair paid: share of the last 7 days' settlements that paid the right way, and the 7-day median APR">
              Persistence
            </th>
            <th scope="col" className="num">
              Price spread
            </th>
            <SortableHeading heading={sortHeadings.open_interest} />
            <th scope="col" className="num">
              Volume 24h
            </th>
            <th scope="col">Updated</th>
            <th scope="col">
              <span className="visually-hidden">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {items.map((o) => {
            const panel = open?.id === o.id ? open.panel : null;
            const expanded = panel !== null;
            return (
              <Fragment key={o.id}>
                <tr data-opportunity={o.id} className={expanded ? "expanded" : undefined}>
                  <th scope="row">{o.symbol}</th>
                  <td>
                    <Leg leg={o.long} note={o.long.stale ? staleLegNote(o.long, asOf, freshness) : null} />
                  </td>
                  <td>
                    <Leg leg={o.short} note={o.short.stale ? staleLegNote(o.short, asOf, freshness) : null} />
                  </td>
                  <Num>{formatApr(o.apr)}</Num>
                  <Num className={o.net_apr < 0 ? "negative" : undefined}>{formatApr(o.net_apr)}</Num>
                  {sized && (
                    <Num>
                      <span data-testid="sized-apr">
                        <SizedApr quote={sized.quotes.get(o.id)} />
                      </span>
                    </Num>
                  )}
                  <Num>{formatApr(o.apr_1d_avg)}</Num>
                  <Num>{formatApr(o.apr_7d_avg)}</Num>
                  <Num>
                    <PersistenceFigures opportunity={o} />
                  </Num>
                  <Num>
                    <PriceSpread opportunity={o} />
                  </Num>
                  <Num>{formatUsdCompact(o.open_interest_usd)}</Num>
                  <Num>{formatUsdCompact(o.volume_24h_usd)}</Num>
                  <td className="nowrap" title={o.updated_at}>
                    {formatAge(o.updated_at, renderedAt)}
                  </td>
                  <td className="row-actions">
                    {panels.map((p) => (
                      <button
                        key={p}
                        type="button"
                        className="secondary small"
                        aria-expanded={panel === p}
                        aria-controls={panelRowId(p, o.id)}
                        onClick={() => setOpen(panel === p ? null : { id: o.id, panel: p })}
                      >
                        {PANEL_LABELS[p][panel === p ? 1 : 0]}
                      </button>
                    ))}
                  </td>
                </tr>
                {expanded && (
                  <tr className="chart-row" id={panelRowId(panel, o.id)}>
                    <td colSpan={COLUMNS}>
                      {panel === "chart" && <FundingHistoryChart id={o.id} symbol={o.symbol} exports={exports} />}
                      {panel === "quote" && <QuotePanel id={o.id} initialSize={sized?.size ?? null} />}
                      {panel === "simulate" && <SimulatePanel id={o.id} />}
                      {panel === "add" && <AddPositionPanel id={o.id} />}
                    </td>
                  </tr>
                )}
              </Fragment>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}

function SortableHeading({ heading }: { heading: SortHeading }) {
  const arrow = heading.direction === "descending" ? " ▼" : heading.direction === "ascending" ? " ▲" : "";
  return (
    <th scope="col" className="num" aria-sort={heading.direction ?? "none"}>
      <Link href={heading.href}>
        {heading.label}
        {arrow}
      </Link>
    </th>
  );
}

/**
 * A leg: its rate and interval, the venue's forecast, last settlement and bounds, and badges for a
 * rate at its cap, a recent interval change, and stale data (`note` says how old), each explained as
 * a tooltip and to screen readers.
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
      <span className="leg-rate">
        {formatFundingRate(leg.funding_rate)}
        <small> / {formatInterval(leg.funding_interval_hours)}</small>
      </span>
      {details.badges.map((badge) => (
        <span key={badge.kind} className={`badge badge-${badge.kind}`} title={badge.note} data-testid={badge.kind}>
          {badge.label}
          <span className="visually-hidden"> ({badge.note})</span>
        </span>
      ))}
      {(details.predicted ?? details.settled ?? details.bounds) !== null && (
        <small className="leg-details">
          {[details.predicted, details.settled, details.bounds].filter((line) => line !== null).map((line) => (
            <span key={line}>{line}</span>
          ))}
        </small>
      )}
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
function PersistenceFigures({ opportunity }: { opportunity: ServedOpportunity }) {
  const cell = persistenceCell(opportunity.persistence);
  return (
    <span className="persistence" title={cell.title} data-testid="persistence">
      {cell.text}
      <span className="visually-hidden"> ({cell.title})</span>
    </span>
  );
}

function Num({ children, className }: { children: ReactNode; className?: string }) {
  return <td className={className ? `num ${className}` : "num"}>{children}</td>;
}
