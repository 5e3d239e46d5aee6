import { HOURS_PER_YEAR } from "../model/apr";
import { HOURS_30D, HOURS_7D, type MarketSeries } from "./pair-persistence";
import type { MarketRef } from "./persistence-set";

/**
 * Spot of `asset` borrowed on venue `exchange` and sold (a `perp_spot` carry trade's short side) as
 * a pair's market: the pair (perpetual, borrowedSpot(venue, asset)) measures the carry as the trade
 * earns it, minus the perpetual's funding minus the borrow rate. Under an exchange that is no venue
 * id, as HELD_SPOT's, so it never meets a real market's key; one per venue and asset, since each
 * venue lends at its own rate.
 */
export function borrowedSpot(exchange: string, asset: string): MarketRef {
  return { exchange: "borrowed", market: `${exchange}:${asset}` };
}

/** One hour's stored borrow rate: `hour` its index in the 30-day window (0 the oldest), `aprPct` the BorrowRate row's. */
export interface BorrowHour {
  hour: number;
  aprPct: number;
}

/**
 * A borrowed spot's series from the stored hourly borrow rates: in each hour with a rate the short
 * side earns minus that rate (its `apr`), and was charged it (its `paid`, per hour, as settled
 * funding is counted: venues charge margin interest hourly at the rate of the hour). An hour
 * without a stored rate is NaN, missing as an hour without funding is for a perpetual, so it ends
 * a run and counts against a window's coverage. Pure.
 */
export function borrowedSpotSeries(hours: Iterable<BorrowHour>): MarketSeries {
  const apr = new Float64Array(HOURS_30D).fill(Number.NaN);
  const paid = new Float64Array(HOURS_7D).fill(Number.NaN);
  const firstOf7d = HOURS_30D - HOURS_7D;
  for (const { hour, aprPct } of hours) {
    if (!(hour >= 0 && hour < HOURS_30D)) continue;
    apr[hour] = 0 - aprPct;
    if (hour >= firstOf7d) paid[hour - firstOf7d] = (0 - aprPct) / 100 / HOURS_PER_YEAR;
  }
  return { apr, paid };
}
