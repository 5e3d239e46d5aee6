import { describe, expect, it } from "vitest";
import mapData from "./asset-map.json" with { type: "json" };
import { ASSET_MAP, assetMap, assetMapSchema } from "./asset-map";
import { normaliseBase } from "./normalise-base";

/** A venue's base as build-snapshot.ts makes it: the bundle split off, then the map. */
const assetOf = (exchange: string, venueBase: string, underlying?: "index" | "crypto") =>
  ASSET_MAP.assetOf(exchange, normaliseBase(venueBase).base, underlying);

describe("the asset map (asset-map.json)", () => {
  it("parses, and says why for every rule", () => {
    const parsed = assetMapSchema.parse(mapData);
    for (const rule of [...parsed.renames, ...parsed.deny]) expect(rule.why.length).toBeGreaterThan(20);
  });

  it("makes the Neiro of Binance, Hyperliquid, Bybit and BingX one asset, and keeps NEIROETH apart", () => {
    expect(assetOf("binance", "NEIRO")).toBe("NEIRO");
    expect(assetOf("hyperliquid", "kNEIRO")).toBe("NEIRO");
    expect(assetOf("bybit", "1000NEIROCTO")).toBe("NEIRO");
    expect(assetOf("bingx", "NEIROCTO")).toBe("NEIRO");
    expect(assetOf("binance", "NEIROETH")).toBe("NEIROETH");
  });

  it("gives Binance's LUNA2 (Terra 2.0) the name the other venues list it by", () => {
    expect(assetOf("binance", "LUNA2")).toBe("LUNA");
    expect(assetOf("binance", "1000LUNC")).toBe("LUNC");
  });

  it("joins the S&P 500's aliases as one index, and only as an index", () => {
    expect(assetOf("hyperliquid:km", "US500", "index")).toBe("SP500");
    expect(assetOf("hyperliquid:cash", "USA500", "index")).toBe("SP500");
    expect(assetOf("hyperliquid:xyz", "SP500", "index")).toBe("SP500");
    // A crypto ticker of the same spelling is not the index.
    expect(assetOf("mexc", "US500")).toBe("US500");
    // Hyperliquid's SPX is the SPX6900 memecoin.
    expect(assetOf("hyperliquid", "SPX")).toBe("SPX");
  });

  it("leaves the bases no rule names as they are", () => {
    expect(assetOf("binance", "1000PEPE")).toBe("PEPE");
    expect(assetOf("bybit", "SHIB1000")).toBe("SHIB");
    expect(assetOf("okx", "BTC")).toBe("BTC");
  });
});

describe("assetMap", () => {
  it("prefers a venue's own rename to one for every venue", () => {
    const map = assetMap({
      renames: [
        { base: "TON", asset: "TONCOIN", why: "every venue's TON is Toncoin (test rule)" },
        { venue: "gate", base: "TON", asset: "TOKAMAK", why: "one venue's TON is another token (test rule)" },
      ],
      deny: [],
    });
    expect(map.assetOf("okx", "TON", undefined)).toBe("TONCOIN");
    expect(map.assetOf("gate", "TON", undefined)).toBe("TOKAMAK");
    expect(map.assetOf("gate", "TON", "equity")).toBe("TON");
  });

  it("never makes a denied market the asset it is denied, whatever a rename says", () => {
    // A rename that would make every crypto SPX the S&P 500: Hyperliquid's SPX (the memecoin) stays itself.
    const map = assetMap({
      renames: [{ base: "SPX", asset: "SP500", why: "a mistaken rule, for the test" }],
      deny: (mapData as { deny: { venue?: string; base: string; asset: string; why: string }[] }).deny.map((rule) => ({ ...rule, venue: "hyperliquid" as const })),
    });
    expect(map.assetOf("hyperliquid", "SPX", undefined)).toBe("SPX");
    expect(map.assetOf("okx", "SPX", undefined)).toBe("SP500");
  });

  it("refuses a market renamed twice, an unknown venue and a base in another spelling", () => {
    const rule = { base: "TON", asset: "TONCOIN", why: "test" };
    expect(() => assetMap({ renames: [rule, { ...rule, asset: "OTHER" }], deny: [] })).toThrow(/renamed twice/);
    expect(() => assetMap({ renames: [{ ...rule, venue: "nowhere" as "okx" }], deny: [] })).toThrow();
    expect(() => assetMap({ renames: [{ ...rule, base: "kTON" }], deny: [] })).toThrow();
  });
});
