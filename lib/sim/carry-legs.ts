import { HOURS_PER_YEAR } from "@/lib/market/model/apr";
import type { CarryOpportunity } from "@/lib/market/carry/carry-opportunity";
import type { HourlyBorrowRate } from "@/lib/market/market";
import type { Settlement } from "./historical";
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

/**
 * Borrowed spot's history as a short leg's settlements, the historical counterpart of the projected
 * leg above: at the end of each hour with a stored borrow rate, minus that hour's interest (the
 * short earns +rate × notional, so it pays the rate). An hour without a stored rate charges
 * nothing, as a perpetual's hour without a recorded settlement pays nothing: the leg's
 * `settlements` count says how many hours history covered. Pure.
 */
export function borrowSettlements(rates: readonly HourlyBorrowRate[]): Settlement[] {
  return rates.map((r) => ({ time: r.time + HOUR_MS, rate: -r.aprPct / 100 / HOURS_PER_YEAR, intervalHours: 1 }));
}
