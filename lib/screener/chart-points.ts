import type { FundingSettlement } from "@/lib/market/funding-settlement";

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
