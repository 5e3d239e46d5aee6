import { describe, expect, it } from "vitest";
import { driftVenueBase } from "./drift";

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
