import { describe, expect, it } from "vitest";
import { AppError } from "@/lib/errors";
import { fixtureJson } from "@/tests/fixtures/venues/read-fixture";
import { gateRiskLimitTiers, hyperliquidMarginTiers, recordedMarketDepth, recordedMarkets } from "./recorded-depth";
import { replaySampleMarket } from "./replay-sample-market";
import { withLadderDeductions } from "../books/margin-table";

const depth = recordedMarketDepth();

describe("recordedMarketDepth", () => {
  it("has a book for markets the offline sample lists, and only those", async () => {
    const sample = await replaySampleMarket();
    const listed = new Set(sample.snapshots.map((s) => `${s.exchange} ${s.market}`));
    for (const market of recordedMarkets()) expect(listed, `${market.exchange} ${market.market}`).toContain(`${market.exchange} ${market.market}`);
    expect(recordedMarkets().map((m) => m.exchange).sort()).toEqual(["binance", "bitget", "bybit", "gate", "hyperliquid", "okx"]);
  });

  it("reads each venue's recording in its own units and dates it by its own time", async () => {
    const book = (exchange: string, market = "BTC/USDT:USDT") => depth.orderBook({ exchange, market });
    expect(await book("binance")).toMatchObject({ contractSize: 1, timestamp: 1654232606695, source: "recording" });
    expect((await book("binance")).asks).toEqual([
      [30430.9, 1.685],
      [30431, 0.001],
      [30431.3, 0.361],
    ]);
    // OKX counts contracts of its ctVal, 0.01 BTC; Gate of its quanto multiplier, 0.0001 BTC.
    expect(await book("okx")).toMatchObject({ contractSize: 0.01, timestamp: 1654329607417 });
    expect(await book("gate")).toMatchObject({ contractSize: 0.0001, timestamp: 1654251438920 });
    expect((await book("gate")).bids[0]).toEqual([30144.5, 324289]);
    expect(await book("bitget")).toMatchObject({ contractSize: 1, timestamp: 1677628852476 });
    expect(await book("bybit")).toMatchObject({ timestamp: 1711960701415 });
    expect(await book("hyperliquid", "BTC/USDC:USDC")).toMatchObject({ timestamp: 1761786491067 });
  });

  it("answers 503 for a sample market without a recorded book", async () => {
    const error = await depth.orderBook({ exchange: "okx", market: "ETH/USDT:USDT" }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AppError);
    expect(error).toMatchObject({ code: "VENUE_UNAVAILABLE" });
    expect((error as AppError).message).toContain("no recorded order book of ETH/USDT:USDT on okx");
  });

  it("has the recorded tiers of Binance, Gate and Hyperliquid, and says the others were not recorded", async () => {
    for (const exchange of ["bybit", "okx", "bitget"]) {
      expect(await depth.marginTable({ exchange, market: "BTC/USDT:USDT" })).toMatchObject({ available: false, reason: "not_recorded" });
    }
    expect(await depth.marginTable({ exchange: "binance", market: "BTC/USDT:USDT" })).toMatchObject({ available: true, boundsIn: "quote" });
  });
});

describe("the recorded margin tiers", () => {
  it("reproduce Binance's own `cum` from its brackets", () => {
    const brackets = fixtureJson<Record<string, { minNotional: number; maxNotional: number; maintenanceMarginRate: number; maxLeverage: number; info: { cum: string } }[]>>(
      "binance/leverageBracket_via-ccxt-fetchLeverageTiers_2024-10-24_BTC-ETH-SOL-DOGE.json",
    );
    for (const [symbol, tiers] of Object.entries(brackets)) {
      const listed = tiers.map((t) => ({ floor: t.minNotional, cap: t.maxNotional, maintenanceMarginRate: t.maintenanceMarginRate, maxLeverage: t.maxLeverage }));
      expect(withLadderDeductions(listed).map((t) => t.maintenanceAmount), symbol).toEqual(tiers.map((t) => Number(t.info.cum)));
    }
  });

  it("read Gate's risk-limit ladder as ccxt does: 1M steps to 30M, k × 0.5 % and 100x / k", () => {
    const tiers = gateRiskLimitTiers({ name: "BTC_USDT", maintenance_rate: "0.005", risk_limit_step: "1000000", risk_limit_max: "30000000", leverage_max: "100" });
    expect(tiers).toHaveLength(30);
    expect(tiers[0]).toEqual({ floor: 0, cap: 1_000_000, maintenanceMarginRate: 0.005, maxLeverage: 100 });
    expect(tiers[1]).toEqual({ floor: 1_000_000, cap: 2_000_000, maintenanceMarginRate: 0.01, maxLeverage: 50 });
  });

  it("read Hyperliquid's BTC margin table (id 56): 40x to 150M, then 20x", () => {
    // Maintenance is half the initial margin at the tier's maximum leverage: 1/80 and 1/40.
    expect(hyperliquidMarginTiers("BTC")).toEqual([
      { floor: 0, cap: 150_000_000, maintenanceMarginRate: 0.0125, maxLeverage: 40 },
      { floor: 150_000_000, cap: null, maintenanceMarginRate: 0.025, maxLeverage: 20 },
    ]);
    // The deduction that keeps it continuous: 150M × (0.025 − 0.0125) = 1,875,000.
    expect(withLadderDeductions(hyperliquidMarginTiers("BTC"))[1]!.maintenanceAmount).toBe(1_875_000);
  });
});

describe("recordedMarketDepth: spot books", () => {
  it("serves Bybit's recorded BTC/USDT spot book, stamped with its own day, apart from the perpetual's", async () => {
    const depth = recordedMarketDepth();
    const spot = await depth.spotOrderBook({ exchange: "bybit", market: "BTC/USDT" });
    // The recording's `ts` 1709891679000 = 2024-03-08T09:54:39Z; best bid 27,450.5, best ask 27,451.
    expect(spot).toMatchObject({ source: "recording", timestamp: 1709891679000, contractSize: 1 });
    expect([spot.bids[0], spot.asks[0]]).toEqual([
      [27450.5, 1.5],
      [27451, 1.2],
    ]);
    expect((await depth.orderBook({ exchange: "bybit", market: "BTC/USDT:USDT" })).timestamp).toBe(1711960701415);
  });

  it("answers 503 for a spot market without a recording, saying when it is quoted", async () => {
    await expect(recordedMarketDepth().spotOrderBook({ exchange: "binance", market: "BTC/USDT" })).rejects.toMatchObject({
      code: "VENUE_UNAVAILABLE",
      message: expect.stringContaining("no recorded spot order book of BTC/USDT on binance"),
    });
  });
});
