/**
 * The attribution TradingView's Lightweight Charts licence asks for, on every page that shows one
 * of its charts: the charts themselves draw no logo (chart-options.ts says why).
 */
export function ChartAttribution() {
  return (
    <span className="small-print">
      Charts by <a href="https://www.tradingview.com/">TradingView</a> Lightweight Charts™.
    </span>
  );
}
