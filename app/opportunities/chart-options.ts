import type { DeepPartial, TimeChartOptions } from "lightweight-charts";

/** The site's chart look, shared by every lightweight-charts chart; only the price axis format differs. */
export function chartOptions(priceFormatter: (value: number) => string): DeepPartial<TimeChartOptions> {
  return {
    autoSize: true,
    layout: { background: { color: "#ffffff" }, textColor: "#5b6672", fontSize: 12 },
    grid: { vertLines: { color: "#eef1f4" }, horzLines: { color: "#eef1f4" } },
    // Room above the highest point for the markers (interval changes) drawn over it.
    rightPriceScale: { borderColor: "#dde3e8", scaleMargins: { top: 0.2, bottom: 0.1 } },
    timeScale: { borderColor: "#dde3e8", timeVisible: true, secondsVisible: false },
    localization: { priceFormatter },
  };
}
