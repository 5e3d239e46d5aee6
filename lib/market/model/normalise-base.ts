export interface NormalisedBase {
  /** The asset itself: `PEPE` for `1000PEPE`, `kPEPE` and `PEPE`. */
  base: string;
  /** Units of the asset in one venue unit: 1000 for `1000PEPE`. */
  multiplier: number;
}

/*
 * Venues quote very cheap tokens per bundle so prices keep enough digits: Binance and Bybit prefix
 * a power of ten (`1000PEPE`, `1000000MOG`) or `1M` (`1MBABYDOGE`); Drift prefixes `1M` or `1K`
 * (`1MPEPE`, `1KWEN`); Hyperliquid prefixes a lowercase `k` (`kPEPE`). The prefix must be followed
 * by a letter so `1INCH` stays itself (`1M` and `1K` by two capitals), and only lowercase `k`
 * counts so `KAVA`, `KSM` and `KAITO` are untouched. Bybit also writes the bundle after the name on
 * its older listings (`SHIB1000`, `BONK1000`, `FLOKI1000` beside its own `1000PEPE`): a power of
 * ten from 1000 up after at least two letters, so `A8`, `AI16Z` and `X2Y2` stay themselves.
 */
const BUNDLE_PREFIXES: ReadonlyArray<readonly [RegExp, number]> = [
  [/^1000000(?=[A-Za-z])/, 1_000_000],
  [/^100000(?=[A-Za-z])/, 100_000],
  [/^10000(?=[A-Za-z])/, 10_000],
  [/^1000(?=[A-Za-z])/, 1_000],
  [/^1M(?=[A-Z]{2})/, 1_000_000],
  [/^1K(?=[A-Z]{2})/, 1_000],
  [/^k(?=[A-Z])/, 1_000],
];

const BUNDLE_SUFFIX = /^([A-Za-z]{2,})(1000|10000|100000|1000000)$/;

/** Splits a venue's base code into the asset and the bundle size it is quoted in. */
export function normaliseBase(venueBase: string): NormalisedBase {
  for (const [prefix, multiplier] of BUNDLE_PREFIXES) {
    if (prefix.test(venueBase)) {
      return { base: venueBase.replace(prefix, "").toUpperCase(), multiplier };
    }
  }
  const suffixed = BUNDLE_SUFFIX.exec(venueBase);
  if (suffixed) return { base: suffixed[1]!.toUpperCase(), multiplier: Number(suffixed[2]) };
  return { base: venueBase.toUpperCase(), multiplier: 1 };
}
