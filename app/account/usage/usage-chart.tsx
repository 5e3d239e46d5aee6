import { CHART_SERIES, usageChartModel } from "@/lib/usage/usage-chart-model";
import type { UsageCounts } from "@/lib/usage/usage-counts";
import type { UsageGranularity } from "@/lib/usage/usage-range";
import styles from "./usage.module.css";

const SIZE = { width: 720, height: 160 };
// Room left of the plot (the bars start there) and above it for the top grid line's stroke.
const LEFT = 44;
const TOP = 2;
const VIEW = { width: LEFT + SIZE.width, height: TOP + SIZE.height };

const percent = (part: number, whole: number) => `${((part / whole) * 100).toFixed(3)}%`;

/**
 * Requests per hour or day as stacked bars, drawn on the server as SVG (no script, no chart
 * library): each bar's tooltip gives the bucket's numbers, and the figure's caption says what the
 * whole chart shows for readers that cannot see it. The SVG scales to its box, so its axis numbers
 * and bucket labels are HTML laid over it at the page's own type size: as SVG text they shrank with
 * the chart, to 8 px at 1280 px and 5 px on a phone. They repeat what the caption and the bars'
 * tooltips say, so screen readers skip them.
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
      <div className={styles.plot}>
        <svg viewBox={`0 ${-TOP} ${VIEW.width} ${VIEW.height}`} role="img" aria-label={`${caption}: ${total} requests in all`} className={styles.svg}>
          {model.ticks.map((tick) => (
            <line key={tick.value} x1={LEFT} x2={VIEW.width} y1={tick.y} y2={tick.y} className={styles.grid} />
          ))}
          {model.bars.map((bar, i) => (
            <g key={i} transform={`translate(${LEFT} 0)`}>
              <title>{bar.title}</title>
              {/* The whole slot answers hover, so an empty hour still tells its time. */}
              <rect x={bar.x} y={0} width={bar.width} height={SIZE.height} className={styles.hover} />
              {bar.segments.map((segment) => (
                <rect key={segment.kind} x={bar.x} y={segment.y} width={bar.width} height={segment.height} className={styles[segment.kind]} />
              ))}
            </g>
          ))}
        </svg>
        {/* Each number sits just above its grid line, from the left edge, so it needs no margin that grows with its length. */}
        {model.ticks.map((tick) => (
          <span key={tick.value} className={styles.tick} style={{ top: percent(TOP + tick.y, VIEW.height) }} aria-hidden="true">
            {tick.value.toLocaleString("en-US")}
          </span>
        ))}
      </div>
      <div className={styles.buckets} aria-hidden="true">
        {model.bars.map((bar, i) =>
          !bar.label ? null : i === model.bars.length - 1 ? (
            <span key={i} className={styles.newest}>
              {bar.label}
            </span>
          ) : (
            <span key={i} style={{ left: percent(LEFT + bar.x + bar.width / 2, VIEW.width) }}>
              {bar.label}
            </span>
          ),
        )}
      </div>
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
