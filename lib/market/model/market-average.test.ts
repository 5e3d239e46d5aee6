import { describe, expect, it } from "vitest";
import { marketKey, pairAverage } from "./market-average";

describe("marketKey", () => {
  it("gives one market the same key each time, whatever texts name it", () => {
    const first = marketKey("binance", "BTC/USDT:USDT");
    // Texts made apart, as each round's parsed answers are.
    const again = marketKey(["bin", "ance"].join(""), ["BTC/USDT", ":USDT"].join(""));
    expect(again).toBe(first);
    expect(first).toBe("binance\u0000BTC/USDT:USDT");
  });

  it("keeps markets of one venue, and one symbol on two venues, apart", () => {
    const keys = [marketKey("okx", "BTC/USDT:USDT"), marketKey("okx", "ETH/USDT:USDT"), marketKey("bybit", "BTC/USDT:USDT"), marketKey("okx", "BTC/USDC:USDC")];
    expect(new Set(keys).size).toBe(4);
  });
});

describe("pairAverage", () => {
  it("is the short leg's mean less the long leg's, to six decimals, NaN where either is unknown", () => {
    expect(pairAverage(12.3456789, 2.1)).toBe(10.245679);
    expect(pairAverage(Number.NaN, 2)).toBeNaN();
  });
});
