"use client";

import { useRouter } from "next/navigation";
import { useMemo, useRef, useState } from "react";
import { ACTIONS_COLUMN, DataTable } from "@/app/components/data-table";
import { formatUtc } from "@/lib/format-time";
import type { PortfolioTotals } from "@/lib/portfolio/accrual";
import type { SeriesPoint } from "@/lib/portfolio/funding-series";
import type { Position } from "@/lib/portfolio/position-schema";
import { formatApr } from "@/lib/screener/format";
import { problemFrom } from "../components/field-errors";
import { formatSignedUsd, formatUsd } from "../opportunities/money";
import { ChartAttribution } from "../opportunities/chart-attribution";
import { UsdLineChart } from "../opportunities/pnl-series-chart";

interface Props {
  positions: Position[];
  totals: PortfolioTotals;
  series: SeriesPoint[];
}

/** The /portfolio page's table, totals and chart; Close and Delete ask first, then reload the page's data. */
export function PortfolioView({ positions, totals, series }: Props) {
  const points = useMemo(() => series.map((p) => ({ time: Math.floor(p.time / 1000), value: p.funding_usd })), [series]);
  if (positions.length === 0) {
    return (
      <p className="panel" role="status">
        No positions yet. Use “Add to portfolio” on an opportunity in the screener.
      </p>
    );
  }
  return (
    <>
      <DataTable
        className="screener-table"
        aria-label="Positions"
        columns={[
          "Symbol",
          "Long leg",
          "Short leg",
          { label: "Notional", className: "num" },
          "Opened",
          { label: "Entry APR", className: "num" },
          { label: "Current APR", className: "num" },
          { label: "Accrued funding", className: "num" },
          { label: "Fees", className: "num" },
          { label: "Net P&L", className: "num" },
          "Status",
          ACTIONS_COLUMN,
        ]}
        footer={
            <tr data-testid="portfolio-totals">
              <th scope="row" colSpan={3}>
                Totals: {totals.positions} positions, {totals.open_positions} open
              </th>
              <td className="num">{formatUsd(totals.open_notional_usd)} open</td>
              <td colSpan={3} />
              <td className="num">{formatSignedUsd(totals.funding_income_usd)}</td>
              <td className="num">{formatSignedUsd(-totals.fees_usd)}</td>
              <td className={totals.net_pnl_usd < 0 ? "num negative" : "num"}>{formatSignedUsd(totals.net_pnl_usd)}</td>
              <td colSpan={2} className="muted">
                {formatSignedUsd(totals.realised_pnl_usd)} realised, {formatSignedUsd(totals.unrealised_pnl_usd)} unrealised
              </td>
            </tr>
        }
      >
        {positions.map((p) => (
          <tr key={p.id} data-position={p.id}>
            <th scope="row">
              {p.symbol}
              {p.note && <small className="muted"> — {p.note}</small>}
            </th>
            <td>
              <strong>{p.long.exchange}</strong> <code>{p.long.market}</code>
            </td>
            <td>
              <strong>{p.short.exchange}</strong> <code>{p.short.market}</code>
            </td>
            <td className="num">{formatUsd(p.notional_usd)}</td>
            <td className="nowrap">
              <time dateTime={p.opened_at}>{formatUtc(p.opened_at)}</time>
            </td>
            <td className="num">{formatApr(p.entry_apr)}</td>
            <td className="num">{p.status === "open" ? formatApr(p.current_apr) : "—"}</td>
            <td className="num">{formatSignedUsd(p.accrual.funding_income_usd)}</td>
            <td className="num">{formatSignedUsd(-p.accrual.fees_usd)}</td>
            <td className={p.accrual.net_pnl_usd < 0 ? "num negative" : "num"}>
              {formatSignedUsd(p.accrual.net_pnl_usd)}
              <small className="muted">{p.status === "open" ? " unrealised" : " realised"}</small>
            </td>
            <td data-testid="position-status">
              {p.status === "open" ? "Open" : "Closed"}
              {p.closed_at && (
                <small className="muted">
                  {" "}
                  <time dateTime={p.closed_at}>{formatUtc(p.closed_at)}</time>
                </small>
              )}
            </td>
            <td className="row-actions">
              <PositionActions position={p} />
            </td>
          </tr>
        ))}
      </DataTable>

      <section className="panel" aria-labelledby="funding-chart-heading">
        <h2 id="funding-chart-heading">Cumulative funding earned</h2>
        {points.length === 0 ? (
          <p className="muted">No funding settlements since your positions opened yet: each one adds a point here.</p>
        ) : (
          <>
            <p className="muted">Funding earned by all positions together, one point per settlement, in US dollars.</p>
            <UsdLineChart points={points} label="Cumulative funding earned by all positions" colour="#067647" />
            <p className="muted">
              <ChartAttribution />
            </p>
          </>
        )}
      </section>
    </>
  );
}

function PositionActions({ position }: { position: Position }) {
  const router = useRouter();
  const closeDialog = useRef<HTMLDialogElement>(null);
  const deleteDialog = useRef<HTMLDialogElement>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const name = `${position.symbol} long ${position.long.exchange} short ${position.short.exchange}`;

  async function act(url: string, method: "POST" | "DELETE", dialog: HTMLDialogElement | null) {
    setBusy(true);
    setError(null);
    const response = await fetch(url, { method });
    setBusy(false);
    if (!response.ok) return setError((await problemFrom(response)).message);
    dialog?.close();
    router.refresh();
  }

  return (
    <>
      {position.status === "open" && (
        <>
          <button type="button" className="secondary small" onClick={() => closeDialog.current?.showModal()}>
            Close
          </button>{" "}
        </>
      )}
      <button type="button" className="danger small" onClick={() => deleteDialog.current?.showModal()}>
        Delete
      </button>

      <dialog ref={closeDialog} aria-label={`Close ${name}`}>
        <h3>Close this position?</h3>
        <p>
          Closing {name} realises its P&amp;L now ({formatSignedUsd(position.accrual.net_pnl_usd)} after the closing fills&apos;
          fees). It stays in your portfolio as closed.
        </p>
        {error && <p className="error">{error}</p>}
        <p>
          <button type="button" disabled={busy} onClick={() => act(`/api/portfolio/positions/${position.id}/close`, "POST", closeDialog.current)}>
            Close position
          </button>{" "}
          <button type="button" className="secondary" onClick={() => closeDialog.current?.close()}>
            Cancel
          </button>
        </p>
      </dialog>

      <dialog ref={deleteDialog} aria-label={`Delete ${name}`}>
        <h3>Delete this position?</h3>
        <p>Deleting removes {name} and its history from your portfolio. It cannot be undone; to keep a record, close it instead.</p>
        {error && <p className="error">{error}</p>}
        <p>
          <button
            type="button"
            className="danger"
            disabled={busy}
            onClick={() => act(`/api/portfolio/positions/${position.id}`, "DELETE", deleteDialog.current)}
          >
            Delete position
          </button>{" "}
          <button type="button" className="secondary" onClick={() => deleteDialog.current?.close()}>
            Cancel
          </button>
        </p>
      </dialog>
    </>
  );
}
