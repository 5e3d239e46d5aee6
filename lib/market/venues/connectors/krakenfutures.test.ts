import { describe, expect, it } from "vitest";
import { krakenFundingInterval, relativeFundingRate } from "./krakenfutures";

describe("relativeFundingRate", () => {
  it("divides the absolute rate (USD a contract an hour) by one contract's value at the mark", () => {
    // ccxt's documented PF_ENJUSD ticker: -7.56414717067e-7 USD at a 0.0434 mark.
    expect(relativeFundingRate(-0.000000756414717067, 0.0434, 1)).toBeCloseTo(-0.0000174289, 9);
    expect(relativeFundingRate(0.5, 100, 10)).toBe(0.0005);
  });

  it("has no rate without one, or without a mark to convert it", () => {
    expect(relativeFundingRate(undefined, 100, 1)).toBeUndefined();
    expect(relativeFundingRate(0.01, undefined, 1)).toBeUndefined();
  });

  it("makes a rate beside an unusable mark or contract size garbled, so the row is rejected", () => {
    expect(relativeFundingRate(0.01, 0, 1)).toBeNaN();
    expect(relativeFundingRate(0.01, Number.NaN, 1)).toBeNaN();
    expect(relativeFundingRate(0.01, 100, 0)).toBeNaN();
  });
});

describe("krakenFundingInterval", () => {
  it("reads fundingRateCoefficient as funding periods a day", () => {
    expect(krakenFundingInterval({ fundingRateCoefficient: 24 })).toEqual({ hours: 1, source: "venue" });
    expect(krakenFundingInterval({ fundingRateCoefficient: 3 })).toEqual({ hours: 8, source: "venue" });
  });

  it("states none for a missing, garbled or fractional-hour coefficient", () => {
    expect(krakenFundingInterval(undefined)).toBeNull();
    expect(krakenFundingInterval({ fundingRateCoefficient: "x" })).toBeNull();
    expect(krakenFundingInterval({ fundingRateCoefficient: 0 })).toBeNull();
    expect(krakenFundingInterval({ fundingRateCoefficient: 7 })).toBeNull();
  });
});
