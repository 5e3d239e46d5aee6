"use client";

import { useEffect, useRef, useState } from "react";
import type { IChartApi, UTCTimestamp } from "lightweight-charts";
import { chartPoints, intervalMarkers } from "@/lib/screener/chart-points";
import type { LegHistory, OpportunityHistory } from "@/lib/screener/leg-history";
import { formatUtc } from "@/lib/format-time";
import { ScrollRegion } from "@/app/components/scroll-region";
import { ChartFrame } from "./chart-frame";
import { chartOptions } from "./chart-options";
import { ExportLinks } from "./export-links";

const LONG_COLOUR = "#0b6bcb";
const SHORT_COLOUR = "#c4320a";

type State = { status: "loading" } | { status: "error"; message: string } | { status: "ready"; history: OpportunityHistory };

/**
 * Both legs' funding settlements of the last 7 days, annualised, on one chart, with their interval
 * changes marked and listed; on plans with exports, the same settlements as a download. `history`
 * given (a page that rendered it on the server, for visitors the JSON route does not serve), the
 * chart draws it; otherwise it loads it from the screener's route.
 */
export function FundingHistoryChart({ id, symbol, exports = false, history: given }: { id: string; symbol: string; exports?: boolean; history?: OpportunityHistory }) {
  const [state, setState] = useState<State>(given ? { status: "ready", history: given } : { status: "loading" });
  const container = useRef<HTMLDivElement>(null);

  useEffect(() => {
    if (given) return;
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
  }, [id, given]);

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
        {state.history.delayed ? " up to 15 minutes ago" : ""} (to {formatUtc(state.history.to)}).
        {empty && " No settlements have been recorded for either leg in this window yet: the service records them from its own rounds."}
      </p>
      {/* The chart in words: its image's name, and the settlements' tables below. */}
      <ChartFrame
        label={`Funding history of ${state.history.id}: ${legSummary("Long", long)} ${legSummary("Short", short)}`}
        chartRef={container}
        testId="history-chart"
      />
      <SettlementTables history={state.history} />
      {exports && (
        <ExportLinks
          label={`${symbol} on ${long.exchange} and ${short.exchange}, this window`}
          selection={{ exchanges: [long.exchange, short.exchange], symbols: [symbol], from: state.history.from, to: state.history.to }}
        />
      )}
    </div>
  );
}

/** One leg's line in words: how many settlements, the latest, and the range of their APRs. */
function legSummary(side: "Long" | "Short", leg: LegHistory): string {
  const points = chartPoints(leg.settlements);
  const last = points.at(-1);
  if (!last) return `${side} ${leg.exchange}: no settlements in the window.`;
  const values = points.map((p) => p.value);
  const changes = leg.intervalChanges.length;
  return (
    `${side} ${leg.exchange}: ${points.length} settlements from ${Math.min(...values).toFixed(1)}% to ${Math.max(...values).toFixed(1)}% a year, ` +
    `the latest ${last.value.toFixed(1)}%${changes > 0 ? `, ${changes} interval change${changes === 1 ? "" : "s"}` : ""}.`
  );
}

/** Every settlement the chart draws, a table per leg, folded away: the chart's data for anyone who cannot see it. */
function SettlementTables({ history }: { history: OpportunityHistory }) {
  if (history.long.settlements.length === 0 && history.short.settlements.length === 0) return null;
  return (
    <details>
      <summary>The settlements as tables</summary>
      {[
        { side: "Long", leg: history.long },
        { side: "Short", leg: history.short },
      ].map(({ side, leg }) => (
        <ScrollRegion key={side} label={`${side} leg's settlements`}>
          <table>
            <caption>
              {side} leg: {leg.exchange} {leg.market}, {leg.settlements.length} settlements
            </caption>
            <thead>
              <tr>
                <th scope="col">Time (UTC)</th>
                <th scope="col" className="num">Rate</th>
                <th scope="col" className="num">Interval</th>
                <th scope="col" className="num">APR</th>
                <th scope="col">Source</th>
              </tr>
            </thead>
            <tbody>
              {leg.settlements.map((s) => (
                <tr key={s.time}>
                  <th scope="row">{s.time.slice(0, 16).replace("T", " ")}</th>
                  <td className="num">{(s.funding_rate * 100).toFixed(4)}%</td>
                  <td className="num">{s.funding_interval_hours === null ? "—" : `${s.funding_interval_hours}h`}</td>
                  <td className="num">{s.apr === null ? "—" : `${s.apr.toFixed(2)}%`}</td>
                  <td>{s.source}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </ScrollRegion>
      ))}
    </details>
  );
}

/** The legs' interval changes in words, beside their markers on the chart. */
function IntervalChanges({ history }: { history: OpportunityHistory }) {
  const changes = [history.long, history.short].flatMap((leg) => leg.intervalChanges.map((change) => ({ leg, change })));
  if (changes.length === 0) return null;
  return (
    <ul className="interval-changes" aria-label="Funding interval changes" data-testid="interval-changes">
      {changes.map(({ leg, change }) => (
        <li key={`${leg.exchange}-${leg.market}-${change.effective_at}`}>
          {leg.exchange} <code>{leg.market}</code>: {change.from_hours}h → {change.to_hours}h from{" "}
          {change.effective_at.slice(0, 16).replace("T", " ")} UTC ({change.source === "history" ? "seen in the settlements" : `read from ${change.source}`})
        </li>
      ))}
    </ul>
  );
}
