import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { linearPerp } from "@/tests/support/market/venue-market";
import { buildSnapshot, classifyMarket, listedMarket, readNumber, snapshotOf } from "./build-snapshot";

const perp = linearPerp("BTC");

describe("classifyMarket", () => {
  it("accepts USDT/USDC linear perpetuals only", () => {
    expect(classifyMarket(perp)).toBe("eligible");
    expect(classifyMarket({ ...perp, quote: "USDC", settle: "USDC" })).toBe("eligible");
    expect(classifyMarket({ ...perp, active: undefined })).toBe("eligible");
    expect(classifyMarket({ ...perp, linear: false, settle: "BTC", quote: "USD" })).toBe("notLinearPerp");
    expect(classifyMarket({ ...perp, swap: false, expiry: 1750982400000 })).toBe("notLinearPerp");
    expect(classifyMarket({ ...perp, quote: "BTC" })).toBe("notLinearPerp");
    expect(classifyMarket({ ...perp, active: false })).toBe("inactive");
  });
});

describe("buildSnapshot", () => {
  const observation = { symbol: perp.symbol, fundingRate: 0.0001, interval: { hours: 8, source: "venue" as const } };

  it("turns absent values into null and falls back on the fetch time", () => {
    expect(buildSnapshot("binance", perp, observation, 1_000)).toMatchObject({
      fundingRate: 0.0001,
      nextFundingAt: null,
      markPrice: null,
      openInterestUsd: null,
      observedAt: 1_000,
    });
    expect(buildSnapshot("binance", perp, undefined, 1_000)).toMatchObject({ fundingRate: null, fundingIntervalHours: null });
  });

  it("rejects the row for a garbled rate, settlement time or observation time", () => {
    expect(buildSnapshot("binance", perp, { ...observation, fundingRate: Number.NaN }, 1_000)).toBeNull();
    expect(buildSnapshot("binance", perp, { ...observation, nextFundingAt: Number.NaN }, 1_000)).toBeNull();
    expect(buildSnapshot("binance", perp, { ...observation, observedAt: Number.NaN }, 1_000)).toBeNull();
  });

  it("pairs a market as its asset by its class, and carries the row's settlement, class and hours only when stated", () => {
    const us500 = { ...perp, id: "km:US500", symbol: "KM:US500/USDC:USDC", base: "US500", quote: "USDC", settle: "USDC" };
    const listed = listedMarket("hyperliquid:km", us500);
    expect(listed).toMatchObject({ bare: "US500", multiplier: 1, cryptoAsset: "US500" });
    const index = snapshotOf("hyperliquid:km", listed, { ...observation, underlyingClass: "index", tradingHours: "always-off-hours-oracle" }, 1_000);
    expect(index).toMatchObject({ base: "SP500", venueBase: "US500", underlyingClass: "index", tradingHours: "always-off-hours-oracle" });
    expect(index).not.toHaveProperty("lastSettlement");
    const crypto = snapshotOf("hyperliquid:km", listed, { ...observation, lastSettlement: { rate: 0.0001, at: 900 } }, 1_000);
    expect(crypto).toMatchObject({ base: "US500", lastSettlement: { rate: 0.0001, at: 900 } });
    expect(crypto).not.toHaveProperty("underlyingClass");
    expect(crypto).not.toHaveProperty("tradingHours");
    expect(listedMarket("bybit", { ...perp, base: "1000NEIROCTO" })).toMatchObject({ bare: "NEIROCTO", multiplier: 1000, cryptoAsset: "NEIRO" });
  });

  it("treats an open interest or volume past ten trillion dollars as unknown: a placeholder or a unit read wrongly", () => {
    expect(buildSnapshot("apex", perp, { ...observation, openInterestUsd: 2036854775808 * 43513.5, volume24hUsd: 1e13 }, 1_000)).toMatchObject({
      openInterestUsd: null,
      volume24hUsd: 1e13,
    });
    expect(buildSnapshot("apex", perp, { ...observation, openInterestUsd: 9e12, volume24hUsd: 1.0001e13 }, 1_000)).toMatchObject({
      openInterestUsd: 9e12,
      volume24hUsd: null,
    });
  });

  it("treats garbled or impossible statistics as unknown, and a zero price as none", () => {
    expect(
      buildSnapshot("binance", perp, { ...observation, markPrice: 0, indexPrice: -5, openInterestUsd: Number.NaN, volume24hUsd: 0 }, 1_000),
    ).toMatchObject({ markPrice: null, indexPrice: null, openInterestUsd: null, volume24hUsd: 0 });
  });
});

describe("readNumber", () => {
  it.each([
    ["0.00013062", 0.00013062],
    ["-0.00205266", -0.00205266],
    [1732723200000, 1732723200000],
    ["1e-5", 0.00001],
  ])("%j → %d", (value, expected) => {
    expect(readNumber(value)).toBe(expected);
  });

  it.each([undefined, null, ""])("%j → undefined (absent)", (value) => {
    expect(readNumber(value)).toBeUndefined();
  });

  it.each(["n/a", "0x10", {}, [], true, "1,5"])("%j → NaN (garbled)", (value) => {
    expect(readNumber(value)).toBeNaN();
  });
});

describe("module boundaries", () => {
  it("keeps ccxt out of every static import: only the connector loads it, on first use", () => {
    const root = fileURLToPath(new URL("../..", import.meta.url));
    const sources = (dir: string): string[] =>
      readdirSync(dir).flatMap((name) => {
        const path = join(dir, name);
        if (statSync(path).isDirectory()) return name === "fixtures" ? [] : sources(path);
        return path.endsWith(".ts") && !path.endsWith(".test.ts") ? [path] : [];
      });
    for (const path of sources(root)) {
      const text = readFileSync(path, "utf8");
      for (const line of text.split("\n").filter((l) => /from\s+"ccxt"/.test(l))) {
        expect(line, path).toMatch(/^import type /);
      }
    }
  });
});
