import { describe, expect, it } from "vitest";
import { createReplayFetch, type ReplayRoute } from "../replay-fetch";
import type { CcxtVenueId } from "../connectors/venue-adapter";
import { venueBookRoutes } from "@/tests/support/market/book-replays";
import { ccxtDepthSource } from "./ccxt-depth-source";

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
  it("says Binance's brackets need a signed request, without asking", async () => {
    const { source, requests } = replayed("binance");
    expect(await source.margin("BTC/USDT:USDT")).toMatchObject({ available: false, reason: "not_published" });
    expect(requests).toEqual([]);
  });

  it("reads Bybit's risk limits as USD tiers with its deductions", async () => {
    // Bybit v5's documented linear shape, with BTCUSDT's first two limits as a live table had them
    // on 2026-02-26 (2,000,000 at 0.5 %, then 2,600,000 at 0.56 % deducting 1,200; lib/market/fixtures/SOURCES.md).
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
    expect(table).toEqual({
      available: true,
      source: "leverage_tiers",
      boundsIn: "quote",
      tiers: [
        { floor: 0, cap: 2_000_000, maintenanceMarginRate: 0.005, maxLeverage: 100, maintenanceAmount: 0 },
        { floor: 2_000_000, cap: 2_600_000, maintenanceMarginRate: 0.0056, maxLeverage: 87.72, maintenanceAmount: 1200 },
      ],
    });
  });

  it("turns OKX's tier bounds from contracts into BTC", async () => {
    // OKX's documented position-tiers shape; tier 1 as rows quoted elsewhere give BTC-USDT (lib/market/fixtures/SOURCES.md): maxSz 1000 contracts.
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
    // 1000 contracts of 0.01 BTC = 10 BTC; OKX applies a tier's rate to the whole position.
    expect(table.tiers.map((t) => [t.floor, t.cap, t.maintenanceAmount])).toEqual([
      [0, 10, 0],
      [10.01, 20, 0],
    ]);
  });

  it("gives Hyperliquid one tier from its maximum leverage: maintenance half the initial margin", async () => {
    // BTC's maxLeverage 40 in the recorded metaAndAssetCtxs: 1 / (2 × 40) = 1.25 %.
    expect(await replayed("hyperliquid").source.margin("BTC/USDC:USDC")).toEqual({
      available: true,
      source: "market_limits",
      boundsIn: "quote",
      tiers: [{ floor: 0, cap: null, maintenanceMarginRate: 0.0125, maxLeverage: 40, maintenanceAmount: 0 }],
    });
  });

  it("fails when the venue answers its tiers with an error, so the leg says the venue was unavailable", async () => {
    await expect(replayed("gate").source.margin("BTC/USDT:USDT")).rejects.toThrow();
  });
});
