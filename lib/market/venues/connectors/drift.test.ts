import { describe, expect, it } from "vitest";
import { driftRate, driftVenueBase } from "./drift";

describe("driftRate", () => {
  it("turns the longs' P&L in percent an hour into the rate longs pay, as a fraction", () => {
    expect(driftRate(0.00093)).toBe(-0.0000093);
    expect(driftRate(-0.0025)).toBe(0.000025);
    expect(driftRate(0)).toBe(0);
    expect(Object.is(driftRate(0), -0)).toBe(false);
    expect(driftRate(undefined)).toBeUndefined();
    expect(driftRate(Number.NaN)).toBeNaN();
  });
});

describe("driftVenueBase", () => {
  it("takes the bundle from the market name, whatever baseAsset says", () => {
    expect(driftVenueBase({ symbol: "1MPEPE-PERP", baseAsset: "PEPE" })).toBe("1MPEPE");
    expect(driftVenueBase({ symbol: "1KWEN-PERP", baseAsset: "WEN" })).toBe("1KWEN");
    expect(driftVenueBase({ symbol: "BTC-PERP", baseAsset: "BTC" })).toBe("BTC");
  });

  it("falls back to baseAsset for a name without the perpetual suffix (spot rows)", () => {
    expect(driftVenueBase({ symbol: "SOL", baseAsset: "SOL" })).toBe("SOL");
    expect(driftVenueBase({ baseAsset: "JTO" })).toBe("JTO");
  });
});
