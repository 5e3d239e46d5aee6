import { roundUsd } from "@/lib/sim/trade-costs";
import type { AccrualSettlement } from "./accrual";

export interface SeriesPosition {
  notionalUsd: number;
  /** Epoch ms; settlements at or before it are not the position's (as in accrue()). */
  openedAt: number;
  /** Epoch ms the position earned to: its closing time, or now while open. */
  until: number;
  long: readonly AccrualSettlement[];
  short: readonly AccrualSettlement[];
}

export interface SeriesPoint {
  /** Epoch ms of a settlement. */
  time: number;
  /** Funding earned by all positions up to and including `time`. */
  funding_usd: number;
}

/**
 * Cumulative funding earned across positions over time, one point per settlement instant: the
 * same rule as accrue() (short leg +rate × notional, long leg −rate × notional, settlements in
 * (openedAt, until]), so the last point equals the positions' summed funding income.
 */
export function cumulativeFunding(positions: readonly SeriesPosition[]): SeriesPoint[] {
  const byTime = new Map<number, number>();
  const add = (time: number, amount: number) => byTime.set(time, (byTime.get(time) ?? 0) + amount);
  for (const p of positions) {
    const own = (s: AccrualSettlement) => s.time > p.openedAt && s.time <= p.until;
    for (const s of p.long.filter(own)) add(s.time, -s.rate * p.notionalUsd);
    for (const s of p.short.filter(own)) add(s.time, s.rate * p.notionalUsd);
  }
  let running = 0;
  return [...byTime.entries()]
    .sort(([a], [b]) => a - b)
    .map(([time, amount]) => {
      running += amount;
      return { time, funding_usd: roundUsd(running) };
    });
}
