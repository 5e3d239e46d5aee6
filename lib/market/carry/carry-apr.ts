import { roundTo } from "@/lib/round";
import { annualisedFundingPct, DEFAULT_TAKER_FEE, type FundingLeg } from "../model/apr";
import { priceSpreadUnavailableReason, type PricedLeg, type PriceSpreadUnavailableReason } from "../model/price-spread";
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

export interface CarryBasis {
  basis_bps: number | null;
  basis_unavailable_reason: PriceSpreadUnavailableReason | null;
}

/**
 * The price basis at entry: (perpetual's mark per unit − spot price) / spot price in basis points
 * (4 decimals), positive when the perpetual is dearer. Given, as perp pairs' `price_spread_bps`
 * is, only for prices of the same moment (PRICE_OBSERVATION_TOLERANCE_MS), else null with the reason.
 */
export function carryBasis(perp: PricedLeg, spot: PricedLeg): CarryBasis {
  const reason = carryBasisUnavailable(perp, spot);
  return reason === null ? { basis_bps: givenBasisBps(perp, spot), basis_unavailable_reason: null } : { basis_bps: null, basis_unavailable_reason: reason };
}

/** Why `carryBasis` gives no basis for these legs; null when it gives one. */
export function carryBasisUnavailable(perp: PricedLeg, spot: PricedLeg): PriceSpreadUnavailableReason | null {
  return priceSpreadUnavailableReason(spot, perp);
}

/** `carryBasis`' basis_bps of legs it gives one for (`carryBasisUnavailable` null): the ranking's, without an object per item. */
export function givenBasisBps(perp: PricedLeg, spot: PricedLeg): number {
  return roundTo(((perp.unitPrice! - spot.unitPrice!) / spot.unitPrice!) * 10_000, 4);
}
