export const HOURS_PER_YEAR = 8760;
/** Holding period over which `net_apr` spreads the entry and exit fees, unless a caller says. */
export const DEFAULT_HOLDING_DAYS = 7;
/**
 * Taker fee charged for a leg whose venue did not state one: 0.06 %, the highest base-tier taker
 * fee among the supported venues, so a missing fee can only make `net_apr` too low, never too high.
 */
export const DEFAULT_TAKER_FEE = 0.0006;

export interface FundingLeg {
  /** Decimal rate per interval. */
  rate: number;
  intervalHours: number;
}

/** A leg's funding as percent per year: rate × 8760 / interval × 100. */
export function annualisedFundingPct(leg: FundingLeg): number {
  return ((leg.rate * HOURS_PER_YEAR) / leg.intervalHours) * 100;
}

/**
 * Gross funding APR of long `long` / short `short`, percent per year. The short leg receives its
 * rate and the long leg pays its rate, so a negative long rate adds to the income.
 */
export function grossApr(long: FundingLeg, short: FundingLeg): number {
  return annualisedFundingPct(short) - annualisedFundingPct(long);
}

/**
 * Taker fees of opening and closing both legs (four fills: 2 × long fee + 2 × short fee, each a
 * fraction of the notional of one leg, the same notional the APR is measured on), paid once per
 * holding period and expressed as percent per year.
 */
export function feeDragApr(longTakerFee: number, shortTakerFee: number, holdingDays: number): number {
  assertHoldingDays(holdingDays);
  const roundTrip = 2 * (longTakerFee + shortTakerFee);
  return ((roundTrip * HOURS_PER_YEAR) / 24 / holdingDays) * 100;
}

export function assertHoldingDays(holdingDays: number): void {
  if (!(holdingDays > 0) || !Number.isFinite(holdingDays)) {
    throw new RangeError(`holdingDays must be a positive number, got ${holdingDays}`);
  }
}

/** `apr` after the fee round trip; negative when fees outweigh the funding over the holding period. */
export function netApr(apr: number, longTakerFee: number, shortTakerFee: number, holdingDays: number): number {
  return apr - feeDragApr(longTakerFee, shortTakerFee, holdingDays);
}

/** Short minus long funding, each rescaled to an 8-hour interval; a decimal like the rates. */
export function fundingSpread8h(long: FundingLeg, short: FundingLeg): number {
  return ratePer8h(short) - ratePer8h(long);
}

/** A leg's rate rescaled to an 8-hour interval: each side of fundingSpread8h. */
export function ratePer8h(leg: FundingLeg): number {
  return (leg.rate * 8) / leg.intervalHours;
}
