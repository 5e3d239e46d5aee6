import type { VenueFeedMinute } from "@/lib/market/model/venue-feed";

/** The chart's size in SVG units (it scales with its box) and the room kept for the axis labels. */
const WIDTH = 240;
const HEIGHT = 64;
const LEFT = 40;
const RIGHT = 4;
const TOP = 6;
const BOTTOM = 14;

export interface FeedChartOptions {
  /** Prefixes the title's and description's ids, unique on the page (the venue id). */
  id: string;
  /** The venue's display name, for the text alternative. */
  venue: string;
}

/**
 * A small chart of a venue's p99 venue-to-publish latency per minute over the last hour, as SVG
 * text: a line per run of minutes with samples (a minute without breaks it), the axis' top value
 * and the window's ends as labels, and a title and description that say the same in words for
 * those who do not see it (`role="img"`, `aria-labelledby`). Pure, rendered on the server: the
 * /status page needs no script.
 */
export function feedChartSvg(series: readonly VenueFeedMinute[], options: FeedChartOptions): string {
  const id = options.id.replace(/[^A-Za-z0-9_-]/g, "_");
  const values = series.flatMap((m) => (m.p99Ms === null ? [] : [m.p99Ms]));
  const top = niceCeiling(Math.max(0, ...values));
  const plotWidth = WIDTH - LEFT - RIGHT;
  const plotHeight = HEIGHT - TOP - BOTTOM;
  const x = (i: number) => LEFT + (series.length > 1 ? (i / (series.length - 1)) * plotWidth : plotWidth / 2);
  const y = (ms: number) => TOP + plotHeight - (top > 0 ? (ms / top) * plotHeight : 0);

  const runs: string[][] = [];
  let run: string[] | null = null;
  series.forEach((minute, i) => {
    if (minute.p99Ms === null) {
      run = null;
      return;
    }
    if (!run) runs.push((run = []));
    run.push(`${fixed(x(i))},${fixed(y(minute.p99Ms))}`);
  });

  const title = `${options.venue}: p99 venue-to-publish latency per minute, last hour`;
  const parts = [
    `<svg xmlns="http://www.w3.org/2000/svg" class="feed-chart" viewBox="0 0 ${WIDTH} ${HEIGHT}" width="${WIDTH}" height="${HEIGHT}" role="img" aria-labelledby="${id}-title ${id}-desc">`,
    `<title id="${id}-title">${escapeXml(title)}</title>`,
    `<desc id="${id}-desc">${escapeXml(describe(series, values))}</desc>`,
    `<line class="axis" x1="${LEFT}" y1="${TOP + plotHeight}" x2="${WIDTH - RIGHT}" y2="${TOP + plotHeight}" stroke="currentColor" stroke-opacity="0.4"/>`,
    `<text class="label" x="${LEFT - 3}" y="${TOP + 6}" text-anchor="end" font-size="8">${escapeXml(formatMs(top))}</text>`,
    `<text class="label" x="${LEFT - 3}" y="${TOP + plotHeight}" text-anchor="end" font-size="8">0</text>`,
    `<text class="label" x="${LEFT}" y="${HEIGHT - 2}" font-size="8">−60 min</text>`,
    `<text class="label" x="${WIDTH - RIGHT}" y="${HEIGHT - 2}" text-anchor="end" font-size="8">now</text>`,
  ];
  if (values.length === 0) {
    parts.push(`<text class="empty" x="${LEFT + plotWidth / 2}" y="${TOP + plotHeight / 2 + 3}" text-anchor="middle" font-size="8">no published changes</text>`);
  }
  for (const points of runs) {
    if (points.length === 1) {
      const [cx, cy] = points[0]!.split(",");
      parts.push(`<circle class="point" cx="${cx}" cy="${cy}" r="1.5" fill="currentColor"/>`);
    } else {
      parts.push(`<polyline class="line" points="${points.join(" ")}" fill="none" stroke="currentColor" stroke-width="1.2"/>`);
    }
  }
  parts.push("</svg>");
  return parts.join("");
}

/** The chart in words: its highest and latest minute and how many minutes had samples. */
function describe(series: readonly VenueFeedMinute[], values: readonly number[]): string {
  if (values.length === 0) return "No change of this venue was published in the last hour.";
  let highest = series.find((m) => m.p99Ms !== null)!;
  let latest = highest;
  for (const minute of series) {
    if (minute.p99Ms === null) continue;
    if (minute.p99Ms > highest.p99Ms!) highest = minute;
    latest = minute;
  }
  return (
    `Highest ${formatMs(highest.p99Ms!)} in the minute from ${clock(highest.at)} UTC; latest ${formatMs(latest.p99Ms!)} ` +
    `in the minute from ${clock(latest.at)} UTC; ${values.length} of ${series.length} minutes had published changes.`
  );
}

/** The smallest of 1, 2, 2.5 and 5 times a power of ten at or above `value` (0 stays 0). */
export function niceCeiling(value: number): number {
  if (value <= 0) return 0;
  const power = 10 ** Math.floor(Math.log10(value));
  for (const step of [1, 2, 2.5, 5, 10]) if (step * power >= value) return step * power;
  return 10 * power;
}

/** Milliseconds as people read them: "850 ms", "1.2 s". */
export function formatMs(ms: number): string {
  if (ms < 1_000) return `${Math.round(ms)} ms`;
  return `${Number((ms / 1_000).toFixed(1))} s`;
}

function clock(epochMs: number): string {
  return new Date(epochMs).toISOString().slice(11, 16);
}

function fixed(n: number): string {
  return String(Math.round(n * 10) / 10);
}

function escapeXml(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
}
