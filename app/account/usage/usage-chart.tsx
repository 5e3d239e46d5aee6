import { CHART_SERIES, usageChartModel } from "@/lib/usage/usage-chart-model";
import type { UsageCounts } from "@/lib/usage/usage-counts";
import type { UsageGranularity } from "@/lib/usage/usage-range";
import styles from "./usage.module.css";

const SIZE = { width: 720, height: 160 };
// Room around the plot: left for the axis numbers, under it for the bucket labels, above and to
// the right for the halves of the top number and of the last label that stick out.
const LEFT = 44;
const BOTTOM = 22;
const TOP = 8;
const RIGHT = 20;

/**
 * Requests per hour or day as stacked bars, drawn on the server as SVG (no script, no chart
 * library): each bar's tooltip gives the bucket's numbers, and the figure's caption says what the
 * whole chart shows for readers that cannot see it.
 */
export function UsageChart({
  caption,
  buckets,
  granularity,
}: {
  caption: string;
  buckets: readonly (UsageCounts & { start: string })[];
  granularity: UsageGranularity;
}) {
  const model = usageChartModel(buckets, granularity, SIZE);
  const total = buckets.reduce((sum, bucket) => sum + bucket.requests, 0);
  return (
    <figure className={styles.chart}>
      <figcaption>
        {caption} <span className="muted">({total.toLocaleString("en-US")} in all)</span>
      </figcaption>
      <svg
        viewBox={`0 ${-TOP} ${LEFT + SIZE.width + RIGHT} ${TOP + SIZE.height + BOTTOM}`}
        role="img"
        aria-label={`${caption}: ${total} requests in all`}
        className={styles.svg}
      >
        {model.ticks.map((tick) => (
          <g key={tick.value}>
            <line x1={LEFT} x2={LEFT + SIZE.width} y1={tick.y} y2={tick.y} className={styles.grid} />
            <text x={LEFT - 6} y={tick.y + 4} textAnchor="end" className={styles.axis}>
              {tick.value.toLocaleString("en-US")}
            </text>
          </g>
        ))}
        {model.bars.map((bar, i) => (
          <g key={i} transform={`translate(${LEFT} 0)`}>
            <title>{bar.title}</title>
            {/* The whole slot answers hover, so an empty hour still tells its time. */}
            <rect x={bar.x} y={0} width={bar.width} height={SIZE.height} className={styles.hover} />
            {bar.segments.map((segment) => (
              <rect key={segment.kind} x={bar.x} y={segment.y} width={bar.width} height={segment.height} className={styles[segment.kind]} />
            ))}
            {bar.label && (
              <text x={bar.x + bar.width / 2} y={SIZE.height + 16} textAnchor="middle" className={styles.axis}>
                {bar.label}
              </text>
            )}
          </g>
        ))}
      </svg>
    </figure>
  );
}

/** The colours of the charts, once per page. */
export function UsageLegend() {
  return (
    <ul className={styles.legend} aria-label="Chart legend">
      {CHART_SERIES.map((series) => (
        <li key={series.kind}>
          <span className={`${styles.swatch} ${styles[series.kind]}`} aria-hidden="true" /> {series.label}
        </li>
      ))}
    </ul>
  );
}
