// Looked up rather than computed: a round rounds a million numbers, and `10 ** n` is a call to pow.
const POWERS_OF_TEN = Array.from({ length: 16 }, (_, n) => 10 ** n);

/**
 * `value` rounded to `decimals` places (half up, as Math.round), with −0 turned into 0 so a zero
 * serialises and compares as plain 0. The one rounding for money, rates and percentages the API
 * serves: `roundTo(0.1 + 0.2, 6)` is 0.3, not 0.30000000000000004. `decimals` is a small
 * non-negative integer (10 ** decimals is exact up to 22).
 */
export function roundTo(value: number, decimals: number): number {
  const scale = POWERS_OF_TEN[decimals] ?? 10 ** decimals;
  // Adding 0 turns −0 (Math.round(-0.2) is −0) into 0.
  return Math.round(value * scale) / scale + 0;
}
