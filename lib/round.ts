// 10 ** d for every d where it is exact, looked up: a round rounds ~470,000 figures, and computing
// the power each time (a call into Math.pow) took ten times as long as the rounding itself.
const SCALES = Array.from({ length: 23 }, (_, decimals) => 10 ** decimals);

/**
 * `value` rounded to `decimals` places (half up, as Math.round), with −0 turned into 0 so a zero
 * serialises and compares as plain 0. The one rounding for money, rates and percentages the API
 * serves: `roundTo(0.1 + 0.2, 6)` is 0.3, not 0.30000000000000004. `decimals` is a small
 * non-negative integer (10 ** decimals is exact up to 22).
 */
export function roundTo(value: number, decimals: number): number {
  const scale = SCALES[decimals] ?? 10 ** decimals;
  // Adding 0 turns −0 (Math.round(-0.2) is −0) into 0.
  return Math.round(value * scale) / scale + 0;
}
