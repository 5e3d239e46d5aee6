import { describe, expect, it } from "vitest";
import type { FundingObservation } from "./build-snapshot";
import { httpMarket, observeListing } from "./http-market";
import type { HttpMarket } from "./venue-adapter";

describe("httpMarket", () => {
  const rest = { linear: true, expiry: undefined, active: true, taker: 0.0005, info: { symbol: "XBTUSDT" } };

  it("names a perpetual by its currencies and any other contract by its id too, keeping the rest", () => {
    const currencies = { base: "BTC", quote: "USDT", settle: "USDT" };
    expect(httpMarket("XBTUSDT", currencies, true, rest)).toEqual({
      id: "XBTUSDT",
      symbol: "BTC/USDT:USDT",
      base: "BTC",
      quote: "USDT",
      settle: "USDT",
      swap: true,
      ...rest,
    });
    expect(httpMarket("XBTUSDTZ26", currencies, false, rest).symbol).toBe("BTC/USDT:USDT-XBTUSDTZ26");
  });

  it("states no settlement currency where the row has none", () => {
    expect(httpMarket("X", { base: "BTC", quote: "USDT", settle: "" }, true, rest).settle).toBeUndefined();
  });
});

describe("observeListing", () => {
  it("observes every listed market from its own row, with no warnings", () => {
    const market = (id: string, rate: string): HttpMarket =>
      httpMarket(id, { base: id, quote: "USDT", settle: "USDT" }, true, { linear: true, expiry: undefined, active: true, taker: undefined, info: { rate } });
    const marketsById = new Map([market("BTC", "0.0001"), market("ETH", "0.0002")].map((m) => [m.id, m]));
    const observe = (row: Record<string, unknown>, { symbol }: HttpMarket): FundingObservation => ({
      symbol,
      fundingRate: Number(row.rate),
      interval: null,
    });
    const collection = observeListing(marketsById, observe);
    expect(collection).toEqual({
      observations: [
        { symbol: "BTC/USDT:USDT", fundingRate: 0.0001, interval: null },
        { symbol: "ETH/USDT:USDT", fundingRate: 0.0002, interval: null },
      ],
      warnings: [],
    });
  });
});
