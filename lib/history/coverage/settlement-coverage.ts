import type { SettlementMark } from "@/lib/market/market";
import type { VenueHistoryLimits } from "../history-types";

const HOUR_MS = 3_600_000;

/**
 * A settlement later than its interval allows by more than this share of the interval opens a gap:
 * one missed settlement doubles the step, while times recorded a few seconds off stay within it.
 */
export const GAP_TOLERANCE = 0.5;
/** Gaps listed per series; `gaps_total` counts them all. */
export const MAX_GAPS = 100;

export interface SourceSpan {
  source: string;
  first: number;
  last: number;
  settlements: number;
}

export interface SeriesCoverage {
  market: string;
  first: number;
  last: number;
  settlements: number;
  /** The spacing most of the series' settlements follow, in hours (null with a single settlement). */
  typicalIntervalHours: number | null;
  /** Per source, by its first settlement. */
  sources: SourceSpan[];
  /** The oldest `MAX_GAPS` gaps as [the settlement before, the settlement after], epoch ms. */
  gaps: [number, number][];
  gapsTotal: number;
}

/** The most frequent step between consecutive times (the shorter on a tie); null under two times. */
export function typicalStepMs(times: readonly number[]): number | null {
  const counts = new Map<number, number>();
  for (let i = 1; i < times.length; i++) {
    const step = times[i]! - times[i - 1]!;
    counts.set(step, (counts.get(step) ?? 0) + 1);
  }
  let best: number | null = null;
  let bestCount = 0;
  for (const [step, count] of counts) {
    if (count > bestCount || (count === bestCount && best !== null && step < best)) [best, bestCount] = [step, count];
  }
  return best;
}

/**
 * The holes of one series, oldest first: consecutive settlements further apart than the later one's
 * interval allows (each settlement pays for the interval that ends at it). A settlement that does not
 * state its interval is held to the series' typical step. At most `max` are listed; all are counted.
 */
export function findGaps(
  points: readonly Pick<SettlementMark, "time" | "intervalHours">[],
  typicalMs: number | null,
  max = MAX_GAPS,
): { gaps: [number, number][]; total: number } {
  const gaps: [number, number][] = [];
  let total = 0;
  for (let i = 1; i < points.length; i++) {
    const stated = points[i]!.intervalHours;
    const allowed = stated !== null && stated > 0 ? stated * HOUR_MS : typicalMs;
    if (allowed === null) continue;
    const step = points[i]!.time - points[i - 1]!.time;
    if (step > allowed * (1 + GAP_TOLERANCE)) {
      total++;
      if (gaps.length < max) gaps.push([points[i - 1]!.time, points[i]!.time]);
    }
  }
  return { gaps, total };
}

/** First, last and count per source, by first settlement. */
export function sourceSpans(points: readonly Pick<SettlementMark, "time" | "source">[]): SourceSpan[] {
  const spans = new Map<string, SourceSpan>();
  for (const p of points) {
    const span = spans.get(p.source);
    if (!span) spans.set(p.source, { source: p.source, first: p.time, last: p.time, settlements: 1 });
    else {
      span.first = Math.min(span.first, p.time);
      span.last = Math.max(span.last, p.time);
      span.settlements++;
    }
  }
  return [...spans.values()].sort((a, b) => a.first - b.first || (a.source < b.source ? -1 : 1));
}

/**
 * Coverage of every series in `marks` (one asset's settlements on one venue, by market then time,
 * as Market.settlementMarks gives them), by market.
 */
export function settlementCoverage(marks: readonly SettlementMark[], maxGaps = MAX_GAPS): SeriesCoverage[] {
  const byMarket = new Map<string, SettlementMark[]>();
  for (const mark of marks) {
    let own = byMarket.get(mark.market);
    if (!own) byMarket.set(mark.market, (own = []));
    own.push(mark);
  }
  return [...byMarket.entries()]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([market, unsorted]) => {
      const points = [...unsorted].sort((a, b) => a.time - b.time);
      const typical = typicalStepMs(points.map((p) => p.time));
      const { gaps, total } = findGaps(points, typical, maxGaps);
      return {
        market,
        first: points[0]!.time,
        last: points.at(-1)!.time,
        settlements: points.length,
        typicalIntervalHours: typical === null ? null : typical / HOUR_MS,
        sources: sourceSpans(points),
        gaps,
        gapsTotal: total,
      };
    });
}

/** The venue's own history limits as the API states them; null when no history reader serves the venue. */
export function venueHistoryLimits(limits: VenueHistoryLimits | undefined) {
  if (!limits) return null;
  return {
    page_size: limits.pageSize,
    max_depth_days: limits.maxDepthDays,
    pagination: limits.pagination,
    requests_per_second: limits.requestsPerSecond,
    source: limits.source,
  };
}
