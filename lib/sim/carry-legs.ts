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

