import { describe, expect, it } from "vitest";
import { fixtureJson } from "@/tests/fixtures/venues/read-fixture";
import { dydxInitialMarginFraction, dydxMarginTable, hyperliquidMarginTable } from "./venue-margin-tables";

type Row = Record<string, unknown>;
const dydx = fixtureJson<{ markets: Record<string, Row> }>("dydx/perpetualMarkets_2025-12-08_sample.json").markets;
const [hyperliquidMeta] = fixtureJson<[unknown, unknown]>("hyperliquid/metaAndAssetCtxs_2026-09_BTC-ETH-SOL-HYPE.json");

describe("dydxInitialMarginFraction", () => {
  it("is the market's fraction where it has no open-interest caps (BTC-USD: caps 0)", () => {
    expect(dydxInitialMarginFraction(dydx["BTC-USD"]!)).toBe(0.02);
  });

  it("rises linearly from the lower cap to 100 % at the upper cap", () => {
    // SOL-USD: 0.05, caps 40,000,000 and 100,000,000 USD. Open interest of 70,000,000 USD (at the
    // oracle's 135.3) is half-way: 0.05 + (1 − 0.05) × 0.5 = 0.525, 1.90x.
    const sol = { ...dydx["SOL-USD"]!, openInterest: String(70_000_000 / 135.3) };
    expect(dydxInitialMarginFraction(sol)).toBeCloseTo(0.525, 12);
    expect(dydxMarginTable(sol)).toMatchObject({ tiers: [{ maxLeverage: 1.9, maintenanceMarginRate: 0.03 }] });
    expect(dydxInitialMarginFraction({ ...sol, openInterest: String(200_000_000 / 135.3) })).toBe(1);
    // The recorded 41,917.9 SOL (5.67M USD) is under the lower cap.
    expect(dydxInitialMarginFraction(dydx["SOL-USD"]!)).toBe(0.05);
  });
});

describe("hyperliquidMarginTable", () => {
  it("gives an asset whose table is not listed its one tier at its maximum leverage", () => {
    const meta = { universe: [{ name: "X", maxLeverage: 3, marginTableId: 3 }], marginTables: [] };
    expect(hyperliquidMarginTable(meta, "X")).toMatchObject({ source: "market_limits", tiers: [{ maxLeverage: 3, maintenanceMarginRate: 1 / 6 }] });
    expect(hyperliquidMarginTable(meta, "Y")).toBeUndefined();
  });

  it("reads ETH's table 55: 25x, then 15x from 100,000,000", () => {
    expect(hyperliquidMarginTable(hyperliquidMeta, "ETH")).toMatchObject({
      tiers: [
        { floor: 0, cap: 100_000_000, maxLeverage: 25, maintenanceMarginRate: 0.02, maintenanceAmount: 0 },
        // 100M × (1/30 − 1/50) = 1,333,333.33333333.
        { floor: 100_000_000, cap: null, maxLeverage: 15, maintenanceAmount: 1_333_333.33333333 },
      ],
    });
  });
});
