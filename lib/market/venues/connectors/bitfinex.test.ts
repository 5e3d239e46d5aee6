import { describe, expect, it } from "vitest";
import { bitfinexObservation, bitfinexUnderlyingClass } from "./bitfinex";

describe("bitfinexUnderlyingClass", () => {
  it.each([
    ["EUR", "fx"],
    ["GBP", "fx"],
    ["JPY", "fx"],
    ["GERMANY40IX", "index"],
    ["EUROPE50IX", "index"],
  ])("%s is %s", (base, underlying) => {
    expect(bitfinexUnderlyingClass(base)).toBe(underlying);
  });

  it.each(["BTC", "XAUT", "AIX", "1INCH", "IX", "ETH2X"])("leaves %s a crypto asset", (base) => {
    expect(bitfinexUnderlyingClass(base)).toBeUndefined();
  });
});

describe("bitfinexObservation", () => {
  const row = ["tBTCF0:USTF0", 1691165059000, null, 29297.85, 29277.5, null, 1, null, 1691193600000, 0.00000527, 82, null, 0.00014548, null, null, 29278.8925, null, null, 10, null, null, null, 0.0005, 0.0025];

  it("reads CLAMP_MAX as the cap and never CLAMP_MIN as a floor", () => {
    const observation = bitfinexObservation("BTC/USDT:USDT", row, "BTC", undefined);
    expect(observation.rateCap).toBe(0.0025);
    expect(observation.rateFloor).toBeUndefined();
  });

  it("takes the index from SPOT_PRICE, not DERIV_PRICE", () => {
    expect(bitfinexObservation("BTC/USDT:USDT", row, "BTC", undefined).indexPrice).toBe(29277.5);
  });

  it("marks a row that ends before the clamp fields as boundless, not garbled", () => {
    const observation = bitfinexObservation("BTC/USDT:USDT", row.slice(0, 19), "BTC", undefined);
    expect(observation.rateCap).toBeUndefined();
    expect(observation.fundingRate).toBe(0.00014548);
  });
});
