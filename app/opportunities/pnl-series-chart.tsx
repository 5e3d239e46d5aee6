"use client";

import { useEffect, useMemo, useRef } from "react";
import type { IChartApi, UTCTimestamp } from "lightweight-charts";
import { ChartFrame } from "./chart-frame";
import { chartOptions } from "./chart-options";

export interface SeriesValue {
  /** Epoch seconds. */
  time: number;
  value: number;
}

/** One line of US dollars over time (lightweight-charts, loaded on first use). */
export function UsdLineChart({ points, label, colour = "#0b6bcb" }: { points: readonly SeriesValue[]; label: string; colour?: string }) {
  const container = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const element = container.current;
    if (!element || points.length === 0) return;
    let chart: IChartApi | undefined;
    let disposed = false;
    void import("lightweight-charts").then(({ createChart, LineSeries }) => {
      if (disposed) return;
      chart = createChart(element, chartOptions((value: number) => `$${value.toFixed(2)}`));
      const series = chart.addSeries(LineSeries, { color: colour, lineWidth: 2, pointMarkersVisible: true });
      // Strictly increasing times, as the library requires.
      const data: { time: UTCTimestamp; value: number }[] = [];
      for (const p of points) {
        const last = data.at(-1);
        if (last && last.time >= p.time) last.value = p.value;
        else data.push({ time: p.time as UTCTimestamp, value: p.value });
      }
      series.setData(data);
      chart.timeScale().fitContent();
    });
    return () => {
      disposed = true;
      chart?.remove();
    };
  }, [points, colour]);
  const last = points.at(-1);
  const summary = last
    ? `: ${points.length} points from $${Math.min(...points.map((p) => p.value)).toFixed(2)} to $${Math.max(...points.map((p) => p.value)).toFixed(2)}, the last $${last.value.toFixed(2)}`
    : "";
  return <ChartFrame label={`${label}${summary}`} chartRef={container} />;
}

/** A historical simulation's cumulative net P&L at the end of each day. */
export function PnlSeriesChart({ daily, label }: { daily: readonly { date: string; net_pnl_usd: number }[]; label: string }) {
  const points = useMemo(() => daily.map((d) => ({ time: Math.floor(Date.parse(d.date) / 1000), value: d.net_pnl_usd })), [daily]);
  return <UsdLineChart points={points} label={label} />;
}
