import type { DeepPartial, TimeChartOptions } from "lightweight-charts";

/**
 * The site's chart look, shared by every lightweight-charts chart; only the price axis format differs.
 * No attribution logo: the library draws it as a link inside the chart's box, which the pages give
 * role="img" (a focusable link inside an image is axe's nested-interactive). The attribution its
 * licence asks for is a line beside the charts instead (chart-attribution.tsx).
 */
export function chartOptions(priceFormatter: (value: number) => string): DeepPartial<TimeChartOptions> {
  return {
    autoSize: true,
    layout: { background: { color: "#ffffff" }, textColor: "#5b6672", fontSize: 12, attributionLogo: false },
    grid: { vertLines: { color: "#eef1f4" }, horzLines: { color: "#eef1f4" } },
    rightPriceScale: { borderColor: "#dde3e8" },
    timeScale: { borderColor: "#dde3e8", timeVisible: true, secondsVisible: false },
    localization: { priceFormatter },
  };
}
