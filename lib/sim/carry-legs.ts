import { HOURS_PER_YEAR } from "@/lib/market/model/apr";
import type { CarryOpportunity } from "@/lib/market/carry/carry-opportunity";
import type { ProjectedLeg } from "./projected";

/**
 * A carry opportunity's two sides as the simulations price a pair's legs, long and short. The
 * perpetual is the leg it is. Spot held (`spot_perp`, the long side) earns and pays no funding: a
 * leg of rate 0. Spot borrowed and sold (`perp_spot`, the short side) pays its borrow rate every
 * hour: a short leg whose hourly "funding" is minus that rate, so the pair arithmetic (the short
 * earns +rate × notional per settlement) charges the interest. Taker fees are the caller's (the
 * account's own or the venues'). Pure.
 */
export function carryProjectedLegs(item: CarryOpportunity, fees: { spot: number | null; perp: number | null }): { long: ProjectedLeg; short: ProjectedLeg } {
  const perp: ProjectedLeg = {
    exchange: item.perp.exchange,
    market: item.perp.market,
    fundingRate: item.perp.funding_rate,
    intervalHours: item.perp.funding_interval_hours,
    takerFee: fees.perp,
  };
  const spot = (hourlyRate: number): ProjectedLeg => ({ exchange: item.spot.exchange, market: item.spot.market, fundingRate: hourlyRate, intervalHours: 1, takerFee: fees.spot });
  if (item.type === "spot_perp") return { long: spot(0), short: perp };
  // A perp_spot always carries its borrow rate (carry-pairs.ts makes one only where the venue lends the asset).
  return { long: perp, short: spot(-(item.borrow_apr ?? 0) / 100 / HOURS_PER_YEAR) };
}

const HOUR_MS = 3_600_000;

/** A stored borrow rate: from `time` on, until the next one, the asset cost `annualPct` simple percent a year to borrow. */
export interface BorrowPoint {
  time: number;
  annualPct: number;
}

/**
 * Borrowed spot's "settlements" over (from, to]: at the end of every whole hour, minus the hour's
 * interest at the rate in force at its start (the last point at or before it), as a short leg's
 * settlements are read (the short earns +rate × notional). Hours before the first point have no
 * known rate: `coveredFrom` says where the history starts, and the caller refuses a window that
 * begins earlier rather than simulate a carry that borrowed for free. Points in time order. Pure.
 */
export function borrowedSpotSettlements(points: readonly BorrowPoint[], from: number, to: number) {
  const settlements: { time: number; rate: number; intervalHours: number }[] = [];
  let next = 0;
  let annualPct: number | undefined;
  for (let hourEnd = Math.floor(from / HOUR_MS) * HOUR_MS + HOUR_MS; hourEnd <= to; hourEnd += HOUR_MS) {
    const hourStart = hourEnd - HOUR_MS;
    for (; next < points.length && points[next]!.time <= hourStart; next++) annualPct = points[next]!.annualPct;
    if (annualPct === undefined) continue;
    settlements.push({ time: hourEnd, rate: -annualPct / 100 / HOURS_PER_YEAR, intervalHours: 1 });
  }
  return { settlements, coveredFrom: points[0]?.time ?? null };
}
