import { describe, expect, it } from "vitest";
import { hip3TradingHours, hip3UnderlyingClass, pairingKey } from "./underlying-class";

describe("hip3UnderlyingClass", () => {
  it("names the recorded and documented HIP-3 coins' classes", () => {
    expect(hip3UnderlyingClass("xyz", "XYZ100")).toBe("index");
    expect(hip3UnderlyingClass("xyz", "TSLA")).toBe("equity");
    expect(hip3UnderlyingClass("km", "US500")).toBe("index");
    expect(hip3UnderlyingClass("cash", "GOLD")).toBe("commodity");
    expect(hip3UnderlyingClass("hyna", "BTC")).toBe("crypto");
  });

  it("takes the dex's default for a ticker it does not know: crypto only on HyENA", () => {
    expect(hip3UnderlyingClass("hyna", "NEWCOIN")).toBe("crypto");
    expect(hip3UnderlyingClass("vntl", "NEWCOIN")).toBe("other");
    // A stock on the crypto dex is still a stock.
    expect(hip3UnderlyingClass("hyna", "AAPL")).toBe("equity");
  });
});

describe("hip3TradingHours", () => {
  it("flags every non-crypto HIP-3 market as trading 24/7 on an off-hours oracle, and crypto as always open", () => {
    expect(hip3TradingHours("equity")).toBe("always-off-hours-oracle");
    expect(hip3TradingHours("other")).toBe("always-off-hours-oracle");
    expect(hip3TradingHours("crypto")).toBeUndefined();
  });
});

describe("pairingKey", () => {
  it("keeps crypto under its bare base and every other class apart from it", () => {
    expect(pairingKey("SPX", undefined)).toBe("SPX");
    expect(pairingKey("SPX", "crypto")).toBe("SPX");
    expect(pairingKey("SPX", "index")).not.toBe("SPX");
    expect(pairingKey("SPX", "index")).not.toBe(pairingKey("SPX", "equity"));
  });
});
