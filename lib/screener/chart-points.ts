import type { FundingIntervalChange } from "@/lib/market/model/funding-interval-change";
import type { FundingSettlement } from "@/lib/market/model/funding-settlement";

export interface ChartPoint {
  /** Epoch seconds, as lightweight-charts' UTCTimestamp. */
  time: number;
  /** The settlement's rate annualised, percent per year, so 1h and 8h venues share one axis. */
  value: number;
}

/**
 * A leg's settlements as one line: strictly ascending times (the chart library refuses anything
 * else), the last row winning a repeated time, and settlements of unknown interval left out
 * because they cannot be annualised.
 */
export function chartPoints(settlements: readonly FundingSettlement[]): ChartPoint[] {
  const byTime = new Map<number, number>();
  for (const s of settlements) {
    if (s.apr === null) continue;
    byTime.set(Math.floor(Date.parse(s.time) / 1000), s.apr);
  }
  return [...byTime].sort((a, b) => a[0] - b[0]).map(([time, value]) => ({ time, value }));
}

/** A change of a leg's funding interval, as a marker on its line. */
export interface IntervalMarker {
  /** Epoch seconds of the leg's first point at or after the change (the chart places markers on points). */
  time: number;
  /** "8h → 4h". */
  text: string;
}

/**
 * Where each interval change shows on a leg's line: at the first settlement from the change on,
 * which is the first one paid at the new interval; a change after the last point marks the last.
 * No points, no markers: there is no line to put them on.
 */
export function intervalMarkers(points: readonly ChartPoint[], changes: readonly FundingIntervalChange[]): IntervalMarker[] {
  const last = points.at(-1);
  if (!last) return [];
  return changes.map((change) => {
    const at = Math.floor(Date.parse(change.effective_at) / 1000);
    const point = points.find((p) => p.time >= at) ?? last;
    return { time: point.time, text: `${change.from_hours}h → ${change.to_hours}h` };
  });
}
