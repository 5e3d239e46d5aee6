import { describe, expect, it } from "vitest";
import { createReplayFetch, type ReplayRoute } from "../venues/replay-fetch";
import type { CcxtVenueId } from "../venues/connectors/venue-adapter";
import { venueBookRoutes } from "@/tests/support/market/book-replays";
import { ccxtDepthSource } from "./ccxt-depth-source";
import { liquidationAtMarkValue, tierFor } from "@/lib/quote/liquidation";

/** A venue's depth source answering from replays (its market list, its recorded BTC book and `extra`). */
function replayed(venue: CcxtVenueId, extra: ReplayRoute[] = []) {
  const replay = createReplayFetch([...extra, ...venueBookRoutes(venue)]);
  return { source: ccxtDepthSource(venue, { fetchImplementation: replay.fetchImplementation, enableRateLimit: false }), requests: replay.requests };
}

describe("ccxtDepthSource: books through ccxt's fetchOrderBook", () => {
  it("reads OKX's levels as contracts of the instrument's ctVal (0.01 BTC)", async () => {
    const { source, requests } = replayed("okx");
    const book = await source.book("BTC/USDT:USDT");
    // The recording of 2022-06-04 08:00:07Z: 5 and 2 contracts bid, 2 and 19 asked.
    expect(book).toMatchObject({ contractSize: 0.01, timestamp: 1654329607417, source: "venue" });
    expect(book.bids.slice(0, 2)).toEqual([
      [29701.6, 5],
      [29701.5, 2],
    ]);
    expect(book.asks[0]).toEqual([29701.7, 2]);
    expect(requests.find((r) => r.path === "/api/v5/market/books")?.query).toMatchObject({ instId: "BTC-USDT-SWAP", sz: "50" });
  });

  it("reads Gate's integer contract counts with the contract's quanto multiplier (0.0001 BTC)", async () => {
    const book = await replayed("gate").source.book("BTC/USDT:USDT");
    // `current` 1654251438.92 s, which ccxt reads to the whole second.
    expect(book).toMatchObject({ contractSize: 0.0001, timestamp: 1654251438000 });
    expect(book.bids[0]).toEqual([30144.5, 324289]);
  });

  it("reads Hyperliquid's l2Book, in the coin", async () => {
    const book = await replayed("hyperliquid").source.book("BTC/USDC:USDC");
    expect(book).toMatchObject({ contractSize: 1, timestamp: 1761786491067 });
    expect(book.bids[0]).toEqual([110427, 4.11882]);
    expect(book.asks[0]).toEqual([110428, 3.72573]);
  });

  it("reads Binance's and Bybit's books in the coin", async () => {
    expect((await replayed("binance").source.book("BTC/USDT:USDT")).asks[0]).toEqual([30430.9, 1.685]);
    expect((await replayed("bybit").source.book("BTC/USDT:USDT")).bids[0]).toEqual([69445.9, 49.567]);
  });

  it("loads the venue's markets once for many books", async () => {
    const { source, requests } = replayed("okx");
    await Promise.all([source.book("BTC/USDT:USDT"), source.book("BTC/USDT:USDT")]);
    await source.book("BTC/USDT:USDT");
    expect(requests.filter((r) => r.path === "/api/v5/public/instruments")).toHaveLength(1);
    expect(requests.filter((r) => r.path === "/api/v5/market/books")).toHaveLength(3);
  });
});

describe("ccxtDepthSource: margin tiers", () => {
  it("says Binance's brackets need a signed request, without asking for them", async () => {
    const { source, requests } = replayed("binance");
    // Binance's market list states no maximum leverage either (it is in the brackets).
    expect(await source.margin("BTC/USDT:USDT")).toMatchObject({ available: false, reason: "not_published", maxLeverage: null });
    expect(requests.map((r) => r.path)).not.toContain("/fapi/v1/leverageBracket");
  });

  it("bounds a venue whose tiers are not read by the market's maximum leverage from its market list", async () => {
    // KuCoin's recorded contract list: XBTUSDTM `maxLeverage` 125.
    expect(await replayed("kucoinfutures").source.margin("BTC/USDT:USDT")).toMatchObject({ available: false, reason: "not_published", maxLeverage: 125 });
    // HTX's contract list has none: ccxt's 1 there is a placeholder, not a bound.
    expect(await replayed("htx").source.margin("BTC/USDT:USDT")).toMatchObject({ available: false, maxLeverage: null });
  });

  it("reads Bybit's risk limits as USD tiers with its deductions", async () => {
    // Bybit v5's documented linear shape, with BTCUSDT's first two limits as a live table had them
    // on 2026-02-26 (2,000,000 at 0.5 %, then 2,600,000 at 0.56 % deducting 1,200; tests/fixtures/venues/SOURCES.md).
    const riskLimit: ReplayRoute = {
      path: "/v5/market/risk-limit",
      query: { category: "linear", symbol: "BTCUSDT" },
      reply: {
        body: {
          retCode: 0,
          retMsg: "OK",
          result: {
            category: "linear",
            list: [
              { id: 1, symbol: "BTCUSDT", riskLimitValue: "2000000", maintenanceMargin: "0.005", initialMargin: "0.01", isLowestRisk: 1, maxLeverage: "100.00", mmDeduction: "" },
              { id: 2, symbol: "BTCUSDT", riskLimitValue: "2600000", maintenanceMargin: "0.0056", initialMargin: "0.0114", isLowestRisk: 0, maxLeverage: "87.72", mmDeduction: "1200" },
            ],
          },
          retExtInfo: {},
          time: 1790517000000,
        },
      },
    };
    const table = await replayed("bybit", [riskLimit]).source.margin("BTC/USDT:USDT");
    // The ladder gives Bybit's own deduction: 2,000,000 × (0.0056 − 0.005) = 1,200.
    // Bybit takes the maintenance margin on the value at entry (lib/quote/liquidation.ts).
    expect(table).toEqual({
      available: true,
      source: "leverage_tiers",
      boundsIn: "quote",
      maintenanceOn: "entry",
      tiers: [
        { floor: 0, cap: 2_000_000, maintenanceMarginRate: 0.005, maxLeverage: 100, maintenanceAmount: 0 },
        { floor: 2_000_000, cap: 2_600_000, maintenanceMarginRate: 0.0056, maxLeverage: 87.72, maintenanceAmount: 1200 },
      ],
    });
  });

  it("turns OKX's tier bounds from contracts into BTC", async () => {
    // OKX's documented position-tiers shape; tier 1 as rows quoted elsewhere give BTC-USDT (tests/fixtures/venues/SOURCES.md): maxSz 1000 contracts.
    const tiers: ReplayRoute = {
      path: "/api/v5/public/position-tiers",
      query: { instType: "SWAP", uly: "BTC-USDT" },
      reply: {
        body: {
          code: "0",
          msg: "",
          data: [
            { instId: "", uly: "BTC-USDT", instFamily: "BTC-USDT", tier: "1", minSz: "0", maxSz: "1000", mmr: "0.004", imr: "0.01", maxLever: "100", optMgnFactor: "0", baseMaxLoan: "", quoteMaxLoan: "" },
            { instId: "", uly: "BTC-USDT", instFamily: "BTC-USDT", tier: "2", minSz: "1001", maxSz: "2000", mmr: "0.006", imr: "0.0133", maxLever: "75", optMgnFactor: "0", baseMaxLoan: "", quoteMaxLoan: "" },
          ],
        },
      },
    };
    const table = await replayed("okx", [tiers]).source.margin("BTC/USDT:USDT");
    expect(table).toMatchObject({ available: true, boundsIn: "base" });
    if (!table.available) throw new Error("unreachable");
    // 1000 contracts of 0.01 BTC = 10 BTC; OKX applies a tier's rate to the whole position. Tier 2
    // is listed from 1,001 contracts, but holds everything past tier 1's cap: (10, 20] BTC.
    expect(table.tiers.map((t) => [t.floor, t.cap, t.maintenanceAmount])).toEqual([
      [0, 10, 0],
      [10, 20, 0],
    ]);
    // 10.005 BTC, between the listed 1,000 and 1,001 contracts, is tier 2's, at its 75x.
    expect(tierFor(table, { side: "long", entryPrice: 30_000, quantity: 10.005, leverage: 80 })?.maxLeverage).toBe(75);
  });

  it("reads Gate's risk-limit tiers with the deduction Gate states for each", async () => {
    // The example answer of Gate's APIv4 documentation for GET /futures/{settle}/risk_limit_tiers
    // (ZTX_USDT's five tiers, gateio/gateapi-* docs/FuturesApi.md), served for BTC_USDT.
    const rows = [
      ["0.01", 1, "0.02", "50", "20000", "0"],
      ["0.013", 2, "0.025", "40", "30000", "60"],
      ["0.015", 3, "0.02857", "35", "50000", "120"],
      ["0.02", 4, "0.03333", "30", "70000", "370"],
      ["0.025", 5, "0.04", "25", "100000", "720"],
    ].map(([maintenance_rate, tier, initial_rate, leverage_max, risk_limit, deduction]) => ({
      maintenance_rate,
      tier,
      initial_rate,
      leverage_max,
      risk_limit,
      contract: "ZTX_USDT",
      deduction,
    }));
    const tiers: ReplayRoute = { path: "/api/v4/futures/usdt/risk_limit_tiers", query: { contract: "BTC_USDT" }, reply: { body: JSON.stringify(rows) } };
    const table = await replayed("gate", [tiers]).source.margin("BTC/USDT:USDT");
    if (!table.available) throw new Error("unreachable");
    expect(table.tiers.map((t) => [t.floor, t.cap, t.maintenanceMarginRate, t.maxLeverage, t.maintenanceAmount])).toEqual([
      [0, 20_000, 0.01, 50, 0],
      [20_000, 30_000, 0.013, 40, 60],
      [30_000, 50_000, 0.015, 35, 120],
      [50_000, 70_000, 0.02, 30, 370],
      [70_000, 100_000, 0.025, 25, 720],
    ]);
    // 1 unit long at 40,000 at 10x, tier 3 (1.5 %, 120 deducted): (40,000 × 0.9 − 120) / 0.985 =
    // 36,426.395939, a notional still in tier 3; without the deduction it would be 36,548.22.
    const liquidation = liquidationAtMarkValue(table, { side: "long", entryPrice: 40_000, quantity: 1, leverage: 10 });
    expect(liquidation?.price).toBeCloseTo(36_426.395939, 5);
  });

  it("reads Hyperliquid's margin table of the asset: maintenance half the initial margin of each tier", async () => {
    // BTC's marginTableId 56 in the recorded metaAndAssetCtxs: 40x from 0, 20x from 150,000,000.
    // 1 / (2 × 40) = 1.25 % and 1 / (2 × 20) = 2.5 %, deducting 150M × (2.5 − 1.25) % = 1,875,000.
    expect(await replayed("hyperliquid").source.margin("BTC/USDC:USDC")).toEqual({
      available: true,
      source: "leverage_tiers",
      boundsIn: "quote",
      tiers: [
        { floor: 0, cap: 150_000_000, maintenanceMarginRate: 0.0125, maxLeverage: 40, maintenanceAmount: 0 },
        { floor: 150_000_000, cap: null, maintenanceMarginRate: 0.025, maxLeverage: 20, maintenanceAmount: 1_875_000 },
      ],
    });
  });

  it("holds a Hyperliquid position to its tier's leverage: HYPE allows 5x above 20,000,000, not its 10x", async () => {
    // HYPE's marginTableId 52, "tiered 10x (2)": 10x from 0, 5x from 20,000,000.
    const table = await replayed("hyperliquid").source.margin("HYPE/USDC:USDC");
    if (!table.available) throw new Error("unreachable");
    expect(tierFor(table, { side: "long", entryPrice: 40, quantity: 500_000, leverage: 6 })).toMatchObject({ maxLeverage: 10, maintenanceMarginRate: 0.05 });
    // 625,000 HYPE at 40 = 25,000,000.
    expect(tierFor(table, { side: "long", entryPrice: 40, quantity: 625_000, leverage: 6 })).toMatchObject({ maxLeverage: 5, maintenanceMarginRate: 0.1, maintenanceAmount: 1_000_000 });
  });

  it("reads dYdX's margin fractions from its market list", async () => {
    // The recorded perpetualMarkets: BTC-USD initialMarginFraction 0.02 (50x), maintenance 0.012.
    expect(await replayed("dydx").source.margin("BTC/USDC:USDC")).toEqual({
      available: true,
      source: "leverage_tiers",
      boundsIn: "quote",
      tiers: [{ floor: 0, cap: null, maintenanceMarginRate: 0.012, maxLeverage: 50, maintenanceAmount: 0 }],
    });
    // SOL-USD: 0.05 (20x) and 0.03; its open interest, 41,917.9 × 135.3 = 5,671,492 USD, is under its 40,000,000 lower cap.
    expect(await replayed("dydx").source.margin("SOL/USDC:USDC")).toMatchObject({ tiers: [{ maintenanceMarginRate: 0.03, maxLeverage: 20 }] });
  });

  it("fails when the venue answers its tiers with an error, so the leg says the venue was unavailable", async () => {
    await expect(replayed("gate").source.margin("BTC/USDT:USDT")).rejects.toThrow();
  });
});
