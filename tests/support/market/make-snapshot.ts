import type { MarketSnapshot } from "@/lib/market/model/types";

/** How a venue that spells it `${base}USDT` names the USDT-margined perpetual on `base`. */
export function usdtPerp(base: string) {
  return {
    market: `${base}/USDT:USDT`,
    venueMarketId: `${base}USDT`,
    base,
    venueBase: base,
    contractMultiplier: 1,
    quote: "USDT",
    settle: "USDT",
  } satisfies Partial<MarketSnapshot>;
}

/** A valid snapshot with round numbers; tests override what they are about. */
export function makeSnapshot(overrides: Partial<MarketSnapshot> & Pick<MarketSnapshot, "exchange">): MarketSnapshot {
  return {
    ...usdtPerp(overrides.base ?? "BTC"),
    fundingRate: 0.0001,
    fundingIntervalHours: 8,
    fundingIntervalSource: "venue",
    nextFundingAt: Date.UTC(2026, 8, 27, 16),
    markPrice: 100,
    indexPrice: 100,
    openInterestUsd: 1_000_000,
    volume24hUsd: 5_000_000,
    takerFee: 0.0005,
    observedAt: Date.UTC(2026, 8, 27, 13, 30),
    ...overrides,
  };
}
