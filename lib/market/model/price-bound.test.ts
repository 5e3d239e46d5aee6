import { describe, expect, it } from "vitest";
import { DEFAULT_PAIR_PRICE_BOUND, strayPrices } from "./price-bound";

/** The positions left out: none when strayPrices finds every leg kept. */
const outsideOf = (prices: number[], bound: number) => strayPrices(prices, bound)?.outside ?? [];

describe("strayPrices", () => {
  it("keeps legs of one asset within the bound, however many", () => {
    // BTC on five venues within a few basis points of each other.
    expect(strayPrices([97_010, 97_030, 96_990, 97_100, 97_005], DEFAULT_PAIR_PRICE_BOUND)).toBeUndefined();
  });

  it("leaves out a token that shares the ticker: a venue's NEIRO that is Neiro Ethereum among First Neiro legs", () => {
    // Per unit: Binance NEIRO 0.00045, Hyperliquid kNEIRO 0.45 / 1000, Bybit 1000NEIROCTO 0.452 / 1000, and a
    // fourth venue whose NEIRO is the other token (NEIROETH, priced in cents); magnitudes of 2025's quotes.
    const { median, outside } = strayPrices([0.00045, 0.45 / 1000, 0.452 / 1000, 0.051], DEFAULT_PAIR_PRICE_BOUND)!;
    expect(outside).toEqual([3]);
    expect(median).toBeCloseTo((0.00045 + 0.000452) / 2, 12);
  });

  it("leaves out both legs of a pair that disagree: which of two is right cannot be told", () => {
    // Hyperliquid's SPX (the SPX6900 memecoin, about a dollar) against an S&P 500 perp some venue calls SPX.
    expect(outsideOf([1.21, 6_850], DEFAULT_PAIR_PRICE_BOUND)).toEqual([0, 1]);
    // A bundle read as one unit: Bybit's SHIB1000 at 0.0125 taken for one SHIB, beside OKX's 0.0000125.
    expect(outsideOf([0.0125, 0.0000125], DEFAULT_PAIR_PRICE_BOUND)).toEqual([0, 1]);
  });

  it("measures a pair's difference as price_spread_bps does: 5 % apart pairs, a little more does not", () => {
    // (105 - 100) / 102.5 = 4.88 %: within. (106 - 100) / 103 = 5.83 %: beyond.
    expect(outsideOf([100, 105], 0.05)).toEqual([]);
    expect(outsideOf([100, 106], 0.05)).toEqual([0, 1]);
  });

  it("leaves out the leg farthest from the median by ratio, one at a time, until the rest agree", () => {
    // 80 is 20 % under the median of 100: it goes, then 98..103 agree (5 / 100.5 = 4.98 %).
    expect(outsideOf([100, 103, 80, 98, 101], 0.05)).toEqual([2]);
    // With 97 instead, 97..103 still spread 6 %: 97 (3.09 % under) goes before 103 (3 % over).
    expect(outsideOf([100, 103, 80, 97, 101], 0.05)).toEqual([2, 3]);
    // Strays on both sides go, the majority stays.
    expect(outsideOf([100, 250, 101, 40, 99], 0.05)).toEqual([1, 3]);
    // Two against two: the median (25.5) lies between, 25 times the cheaper pair and half the
    // dearer: the cheaper pair goes, listed on the operator console for the map to settle.
    expect(outsideOf([1, 1.01, 50, 50.5], 0.05)).toEqual([0, 1]);
  });

  it("takes the median of an even count as the mean of the middle two", () => {
    expect(strayPrices([1, 2, 3, 40], 0.05)?.median).toBe(2.5);
  });

  it("keeps legs without a mark (nothing to check) and a lone priced leg", () => {
    expect(strayPrices([Number.NaN, 100, Number.NaN, 300], 0.05)).toEqual({ median: 200, outside: [1, 3] });
    expect(strayPrices([Number.NaN, 100, Number.NaN], 0.05)).toBeUndefined();
    expect(strayPrices([Number.NaN, Number.NaN], 0.05)).toBeUndefined();
    expect(strayPrices([5, 5], 0.05)).toBeUndefined();
  });
});
