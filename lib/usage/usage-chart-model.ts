import type { UsageCounts } from "./usage-counts";
import type { UsageGranularity } from "./usage-range";

/** The outcomes a bar stacks, bottom to top, with what the legend and a bar's tooltip call them. */
export const CHART_SERIES = [
  { kind: "successes", label: "Successes", short: "successful" },
  { kind: "client_errors", label: "Client errors (4xx)", short: "4xx" },
  { kind: "rate_limited", label: "Rate limited (429)", short: "429" },
  { kind: "server_errors", label: "Server errors (5xx)", short: "5xx" },
] as const;
export type SeriesKind = (typeof CHART_SERIES)[number]["kind"];

export interface ChartSegment {
  kind: SeriesKind;
  y: number;
  height: number;
}

export interface ChartBar {
  x: number;
  width: number;
  /** The axis label under the bar, on every few bars only; null elsewhere. */
  label: string | null;
  /** What hovering the bar says: the bucket and its counts. */
  title: string;
  segments: ChartSegment[];
}

export interface ChartModel {
  width: number;
  height: number;
  /** The top of the vertical axis: a round number at least the largest bar. */
  max: number;
  /** Horizontal grid lines, bottom (0) to top (`max`). */
  ticks: { y: number; value: number }[];
  bars: ChartBar[];
}

export interface ChartSize {
  width: number;
  height: number;
}

/** 1, 2 or 5 times a power of ten, at least `value` (and at least 1). */
export function niceCeiling(value: number): number {
  if (value <= 1) return 1;
  const power = 10 ** Math.floor(Math.log10(value));
  for (const step of [1, 2, 5, 10]) if (step * power >= value) return step * power;
  return 10 * power;
}

const pad = (n: number) => String(n).padStart(2, "0");

/** "20:00" for an hour, "11-24" for a day: the bucket's UTC start, as short as an axis needs. */
export function bucketLabel(start: string, granularity: UsageGranularity): string {
  const date = new Date(start);
  return granularity === "hour" ? `${pad(date.getUTCHours())}:00` : `${pad(date.getUTCMonth() + 1)}-${pad(date.getUTCDate())}`;
}

/** "2026-11-24 20:00 UTC" or "2026-11-24 (UTC)": the bucket in full, for its tooltip. */
function bucketTitle(start: string, granularity: UsageGranularity): string {
  return granularity === "hour" ? `${start.slice(0, 10)} ${start.slice(11, 16)} UTC` : `${start.slice(0, 10)} (UTC)`;
}

/**
 * The geometry of a stacked bar chart of requests per bucket, outcomes stacked in CHART_SERIES
 * order, in SVG units with y growing downwards: pure, so the page only draws what this says.
 * Every bar gets the same width; the axis labels land on every `labelEvery`-th bar from the last
 * (the current hour or day) backwards, so the most recent bucket is always labelled.
 */
export function usageChartModel(
  buckets: readonly (UsageCounts & { start: string })[],
  granularity: UsageGranularity,
  size: ChartSize,
  labelEvery = granularity === "hour" ? 6 : 5,
): ChartModel {
  const max = niceCeiling(Math.max(0, ...buckets.map((bucket) => bucket.requests)));
  const slot = buckets.length ? size.width / buckets.length : size.width;
  const scale = size.height / max;
  const bars = buckets.map((bucket, i) => {
    let top = size.height;
    const segments: ChartSegment[] = [];
    for (const { kind } of CHART_SERIES) {
      const height = bucket[kind] * scale;
      if (height <= 0) continue;
      top -= height;
      segments.push({ kind, y: top, height });
    }
    const parts = CHART_SERIES.filter(({ kind }) => bucket[kind] > 0).map(({ kind, short }) => `${bucket[kind]} ${short}`);
    return {
      x: i * slot + slot * 0.1,
      width: slot * 0.8,
      label: (buckets.length - 1 - i) % labelEvery === 0 ? bucketLabel(bucket.start, granularity) : null,
      title: `${bucketTitle(bucket.start, granularity)}: ${bucket.requests} request${bucket.requests === 1 ? "" : "s"}${parts.length ? ` (${parts.join(", ")})` : ""}`,
      segments,
    };
  });
  // A middle line only where it falls on a whole number of requests.
  const ticks = (max % 2 === 0 ? [0, max / 2, max] : [0, max]).map((value) => ({ value, y: size.height - value * scale }));
  return { width: size.width, height: size.height, max, ticks, bars };
}
