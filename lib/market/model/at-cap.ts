/** Rates within this of a bound count as at it: venues quote both to 8 decimals at most. */
const TOLERANCE = 1e-10;

/**
 * Whether a market's funding sits at the venue's cap or floor: its current or its predicted rate at
 * or beyond either bound. Such a rate no longer measures the premium (the spread is clamped), and
 * venues shorten the interval of a market that settles there (Binance to 1h, Bybit and OKX step by
 * step). No bound stated, or no rate: false. Pure.
 */
export function atCap(rates: readonly (number | null)[], cap: number | null, floor: number | null): boolean {
  return rates.some(
    (rate) => rate !== null && ((cap !== null && rate >= cap - TOLERANCE) || (floor !== null && rate <= floor + TOLERANCE)),
  );
}
