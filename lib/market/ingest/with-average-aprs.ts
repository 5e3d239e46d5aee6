import { roundTo } from "@/lib/round";
import type { Opportunity } from "../types";

/** Mean annualised funding (percent per year) of one market over the last day and week. */
export interface MarketAverage {
  day: number | null;
  week: number | null;
}

export function marketKey(exchange: string, market: string): string {
  return `${exchange}\u0000${market}`;
}

/**
 * Adds `apr_1d_avg` / `apr_7d_avg`: the short leg's mean annualised funding minus the long leg's,
 * which is the mean of the pair's APR when both legs were sampled in the same rounds (they are:
 * one round observes every venue). `null` when either leg has no history in the window. Pure.
 */
export function withAverageAprs(items: readonly Opportunity[], averages: ReadonlyMap<string, MarketAverage>): Opportunity[] {
  return items.map((o) => {
    const long = averages.get(marketKey(o.long.exchange, o.long.market));
    const short = averages.get(marketKey(o.short.exchange, o.short.market));
    const diff = (pick: (a: MarketAverage) => number | null) => {
      const s = short ? pick(short) : null;
      const l = long ? pick(long) : null;
      return s === null || l === null ? null : roundTo(s - l, 6);
    };
    return { ...o, apr_1d_avg: diff((a) => a.day), apr_7d_avg: diff((a) => a.week) };
  });
}
