import { roundTo } from "@/lib/round";
import { annualisedFundingPct, DEFAULT_TAKER_FEE, type FundingLeg } from "../model/apr";
import { unavailableReasonOf, type PriceSpreadUnavailableReason } from "../model/price-spread";
import type { SpotLeg } from "./spot-leg";

/*
 * A carry trade's funding arithmetic, in the units of perp pairs' (model/apr.ts): percent per year,
 * simple, on the notional of one leg. Its net APR is apr.ts' `netApr` with the spot leg's taker fee
 * in place of one perpetual's: the same four fills (open and close each leg) over the holding period.
 */

/** `spot_perp`'s gross APR: the short perpetual receives its rate, and nothing is borrowed. */
export function spotPerpApr(perp: FundingLeg): number {
  return annualisedFundingPct(perp);
}

/**
 * `perp_spot`'s gross APR: the long perpetual pays its rate, so negative funding is income, and the
 * borrowed base costs `borrowAprPct` (annualisedBorrowPct) for as long as the trade is held.
 */
export function perpSpotApr(perp: FundingLeg, borrowAprPct: number): number {
  return -annualisedFundingPct(perp) - borrowAprPct;
}

/**
 * The spot leg's taker fee as `net_apr` charges it: the venue's stated fee, else DEFAULT_TAKER_FEE,
 * as a perpetual without a stated fee is charged, so a missing fee can only make `net_apr` too low.
 */
export function spotTakerFee(spot: Pick<SpotLeg, "takerFee">): number {
  return spot.takerFee ?? DEFAULT_TAKER_FEE;
}

/**
 * Why the carry's price basis at entry is not given for these legs (perp_spot's and spot_perp's
 * `basis_unavailable_reason`), null when it is: as perp pairs' `price_spread_bps`, only for prices
 * of the same moment (PRICE_OBSERVATION_TOLERANCE_MS). Numbers, NaN for an unknown price or time:
 * the ranking asks it for each of a round's 118,000 items.
 */
export function carryBasisUnavailable(perpPrice: number, perpAt: number, spotPrice: number, spotAt: number): PriceSpreadUnavailableReason | null {
  return unavailableReasonOf(spotPrice, spotAt, perpPrice, perpAt);
}

/**
 * The price basis at entry (`basis_bps`): (perpetual's mark per unit − spot price) / spot price in
 * basis points, 4 decimals, positive when the perpetual is dearer; of legs carryBasisUnavailable
 * gives no reason for (the caller asks it once, for the reason column too), the others have none.
 */
export function carryBasisBps(perpPrice: number, spotPrice: number): number {
  return roundTo(((perpPrice - spotPrice) / spotPrice) * 10_000, 4);
}
