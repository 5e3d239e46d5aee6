import { describe, expect, it } from "vitest";
import { opportunityId } from "../opportunities/opportunity-columns";
import { carryOpportunityId, parseCarryOpportunityId } from "./carry-id";

describe("carry opportunity ids", () => {
  it("name the asset, the type and the venues long side first", () => {
    expect(carryOpportunityId("BTC", "spot_perp", "binance", "bybit")).toBe("BTC-spot_perp-binance-bybit");
    expect(carryOpportunityId("BTC", "perp_spot", "bybit", "binance")).toBe("BTC-perp_spot-bybit-binance");
  });

  it("parse back whole, whatever dashes the asset or colons a HIP-3 venue has", () => {
    for (const [symbol, type, long, short] of [
      ["BTC", "spot_perp", "binance", "binance"],
      ["BTC-OLD", "perp_spot", "hyperliquid:hyna", "okx"],
    ] as const) {
      expect(parseCarryOpportunityId(carryOpportunityId(symbol, type, long, short))).toEqual({ symbol, type, longExchange: long, shortExchange: short });
    }
  });

  it("tell a perp pair's id and malformed texts from carry ids", () => {
    expect(parseCarryOpportunityId(opportunityId("BTC", "binance", "bybit"))).toBeUndefined();
    expect(parseCarryOpportunityId(opportunityId("BTC-OLD", "binance", "bybit"))).toBeUndefined();
    expect(parseCarryOpportunityId("spot_perp-binance-bybit")).toBeUndefined();
    expect(parseCarryOpportunityId("-spot_perp-binance-bybit")).toBeUndefined();
    expect(parseCarryOpportunityId("BTC-perp_perp-binance-bybit")).toBeUndefined();
    expect(parseCarryOpportunityId("BTC-spot_perp-Binance-bybit")).toBeUndefined();
  });
});
