import type { Ref } from "react";

/**
 * A lightweight-charts chart with its text alternative. The library puts its attribution link
 * inside the element it draws in, so that element cannot carry an image role (axe
 * nested-interactive: a link inside an image is hidden from keyboards and screen readers). The
 * image is a sibling laid over the drawing instead, named by `label`, letting the pointer through
 * to the chart and its link.
 */
export function ChartFrame({ label, chartRef, testId }: { label: string; chartRef: Ref<HTMLDivElement>; testId?: string }) {
  return (
    <div style={{ position: "relative" }}>
      <div role="img" aria-label={label} style={{ position: "absolute", inset: 0, pointerEvents: "none" }} />
      <div ref={chartRef} className="history-chart" data-testid={testId} />
    </div>
  );
}
