"use client";

import { useEffect, useRef, useState } from "react";
import type { IChartApi, UTCTimestamp } from "lightweight-charts";
import { chartPoints, intervalMarkers } from "@/lib/screener/chart-points";
import type { OpportunityHistory } from "@/lib/screener/leg-history";
import { chartOptions } from "./chart-options";
import { ExportLinks } from "./export-links";

const LONG_COLOUR = "#0b6bcb";
const SHORT_COLOUR = "#c4320a";

type State = { status: "loading" } | { status: "error"; message: string } | { status: "ready"; history: OpportunityHistory };

/**
 * Both legs' funding settlements of the last 7 days, annualised, on one chart, with their interval
 * changes marked; on plans with exports, the same settlements as a download.
 */
export function FundingHistoryChart({ id, symbol, exports = false }: { id: string; symbol: string; exports?: boolean }) {
  const [state, setState] = useState<State>({ status: "loading" });
  const container = useRef<HTMLDivElement>(null);

  useEffect(() => {
    const abort = new AbortController();
    fetch(`/api/opportunities/${encodeURIComponent(id)}/history`, { signal: abort.signal })
      .then(async (response) => {
        const body = (await response.json()) as { data?: OpportunityHistory; error?: { message: string } };
        if (!response.ok || !body.data) throw new Error(body.error?.message ?? `The history could not be loaded (HTTP ${response.status})`);
        setState({ status: "ready", history: body.data });
      })
      .catch((error: unknown) => {
        if (abort.signal.aborted) return;
        setState({ status: "error", message: error instanceof Error ? error.message : "The history could not be loaded" });
      });
    return () => abort.abort();
  }, [id]);

  const history = state.status === "ready" ? state.history : null;
  useEffect(() => {
    const element = container.current;
    if (!history || !element) return;
    let chart: IChartApi | undefined;
    let disposed = false;
    // Loaded on first use: the table itself never pays for the charting library.
    void import("lightweight-charts").then(({ createChart, createSeriesMarkers, LineSeries }) => {
      if (disposed) return;
      chart = createChart(element, chartOptions((value: number) => `${value.toFixed(1)}%`));
      const legs = [
        { leg: history.long, colour: LONG_COLOUR, title: `Long ${history.long.exchange}` },
        { leg: history.short, colour: SHORT_COLOUR, title: `Short ${history.short.exchange}` },
      ];
      for (const { leg, colour, title } of legs) {
        const series = chart.addSeries(LineSeries, { color: colour, lineWidth: 2, title, pointMarkersVisible: true });
        const points = chartPoints(leg.settlements);
        series.setData(points.map((p) => ({ time: p.time as UTCTimestamp, value: p.value })));
        // Each change of the leg's funding interval, marked where the new interval's payments begin.
        createSeriesMarkers(
          series,
          intervalMarkers(points, leg.intervalChanges).map((m) => ({
            time: m.time as UTCTimestamp,
            position: "aboveBar" as const,
            shape: "square" as const,
            color: colour,
            text: m.text,
          })),
        );
      }
      chart.timeScale().fitContent();
    });
    return () => {
      disposed = true;
      chart?.remove();
    };
  }, [history]);

  if (state.status === "loading") return <p className="muted">Loading funding history…</p>;
  if (state.status === "error") return <p className="error" role="alert">{state.message}</p>;
  const { long, short } = state.history;
  const empty = long.settlements.length === 0 && short.settlements.length === 0;
  return (
    <div className="history">
      <p className="history-legend">
        <span className="swatch" style={{ background: LONG_COLOUR }} /> Long {long.exchange} <code>{long.market}</code> ·{" "}
        {long.settlements.length} settlements
        <span className="swatch" style={{ background: SHORT_COLOUR }} /> Short {short.exchange} <code>{short.market}</code> ·{" "}
        {short.settlements.length} settlements
      </p>
      <IntervalChanges history={state.history} />
      <p className="muted">
        Each point is one funding settlement, annualised (% per year), over the last 7 days
        {state.history.delayed ? " up to 15 minutes ago" : ""}.
        {empty && " No settlements have been recorded for either leg in this window yet: the service records them from its own rounds."}
      </p>
      <div ref={container} className="history-chart" role="img" aria-label={`Funding history of ${state.history.id}`} />
      {exports && (
        <ExportLinks
          label={`${symbol} on ${long.exchange} and ${short.exchange}, this window`}
          selection={{ exchanges: [long.exchange, short.exchange], symbols: [symbol], from: state.history.from, to: state.history.to }}
        />
      )}
    </div>
  );
}

/** The legs' interval changes in words, beside their markers on the chart. */
function IntervalChanges({ history }: { history: OpportunityHistory }) {
  const changes = [history.long, history.short].flatMap((leg) => leg.intervalChanges.map((change) => ({ leg, change })));
  if (changes.length === 0) return null;
  return (
    <ul className="interval-changes" aria-label="Funding interval changes">
      {changes.map(({ leg, change }) => (
        <li key={`${leg.exchange}-${change.effective_at}`}>
          {leg.exchange} <code>{leg.market}</code>: {change.from_hours}h → {change.to_hours}h from{" "}
          {change.effective_at.slice(0, 16).replace("T", " ")} UTC ({change.source})
        </li>
      ))}
    </ul>
  );
}
